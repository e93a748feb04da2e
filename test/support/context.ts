import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/core/config';
import { createCore, type Core } from '../../src/core';
import { databaseUrl } from './databases';

/** This jest worker's own database, migrated by the global setup. */
export function workerDatabaseUrl(): string {
  const runId = process.env.TEST_RUN_ID;
  if (!runId) throw new Error('TEST_RUN_ID is unset: run the tests through jest (npm test)');
  return databaseUrl(`${runId}_${process.env.JEST_WORKER_ID ?? '1'}`);
}

/** A unique name for Redis keys and streams, so tests and runs never read each other's entries. */
export function uniqueName(label: string): string {
  return `test:${process.env.TEST_RUN_ID}:${label}:${randomBytes(4).toString('hex')}`;
}

/** The configuration the tests run with: development secrets, this worker's database. */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: workerDatabaseUrl(),
    EVENTS_STREAM: uniqueName('events'),
    REDIS_KEY_PREFIX: `${uniqueName('keys')}:`,
    ...overrides,
  });
}

export const ALL_TABLES = [
  'held_revokes',
  'job_runs',
  'code_attempt_failures',
  'premium_codes',
  'premium_code_batches',
  'premium_transfers',
  'payment_refunds',
  'subscription_status_changes',
  'subscription_charges',
  'subscriptions',
  'order_reservations',
  'outbox',
  'webhook_events',
  'premium_grants',
  'server_premiums',
  'user_premiums',
  'orders',
  'user_guilds',
  'users',
];

const DEADLOCK_DETECTED = '40P01';

/** Empties every table of this worker's database: each test starts from nothing. */
export async function resetDatabase(core: Core): Promise<void> {
  // Processes a test started (the browser tests' API and worker) may still be writing: TRUNCATE's locks
  // can then deadlock with one of their transactions, and PostgreSQL may pick the TRUNCATE to cancel.
  for (let attempt = 1; ; attempt++) {
    try {
      await core.sequelize.query(`TRUNCATE ${ALL_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
      return;
    } catch (error) {
      const code = (error as { parent?: { code?: string } }).parent?.code;
      if (code !== DEADLOCK_DETECTED || attempt === 5) throw error;
    }
  }
}

/** A core connected to this worker's database, emptied before each test and closed after all. */
export function useTestCore(overrides: NodeJS.ProcessEnv = {}): () => Core {
  let core: Core | undefined;
  beforeAll(() => {
    core = createCore(testConfig(overrides));
  });
  beforeEach(() => resetDatabase(core!));
  afterAll(() => core?.close());
  return () => core!;
}

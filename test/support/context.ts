import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/core/config';
import { createCore, type Core } from '../../src/core';
import { forgetSettings } from '../../src/core/settings';
import { forgetTierCatalog } from '../../src/core/users';
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

/**
 * Empties every table but the migrations' record and restarts their sequences, in one statement: a
 * DELETE of a test's few rows takes a millisecond where a TRUNCATE of the twenty tables took ~180 ms
 * (new files for every table and index), which was most of a short test's time. One statement, so that
 * the foreign keys (orders and grants point at each other) are checked once, after every table is
 * empty; the tables are read from the catalog, so a table a migration adds is emptied too. The catalog
 * (tiers, plans) goes back to what the migrations seeded, kept by the global setup as `seeded_*`.
 */
const EMPTY_EVERY_TABLE = `DO $$
DECLARE
  statement text;
BEGIN
  SELECT 'WITH ' || string_agg(format('%I AS (DELETE FROM %I)', 'emptied_' || relname, relname), ', ') || ' SELECT 1'
    INTO statement
    FROM pg_class
   WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')
     AND relname <> 'schema_migrations' AND relname NOT LIKE 'seeded\\_%';
  EXECUTE statement;
  INSERT INTO tiers SELECT * FROM seeded_tiers;
  INSERT INTO plans SELECT * FROM seeded_plans;
  PERFORM setval(sequence.seqrelid, sequence.seqstart, false)
     FROM pg_sequence sequence JOIN pg_class class ON class.oid = sequence.seqrelid
    WHERE class.relnamespace = 'public'::regnamespace;
END $$`;

const DEADLOCK_DETECTED = '40P01';

/** Empties every table of this worker's database: each test starts from nothing. */
export async function resetDatabase(core: Core): Promise<void> {
  // Processes a test started (the browser tests' API and worker) may still be writing: the DELETEs can
  // then deadlock with one of their transactions, and PostgreSQL may pick this one to cancel.
  for (let attempt = 1; ; attempt++) {
    try {
      await core.sequelize.query(EMPTY_EVERY_TABLE);
      forgetSettings(core.sequelize);
      forgetTierCatalog(core.sequelize);
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

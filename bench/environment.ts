import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig, loadDotEnv } from '../src/core/config';
import { connectDatabase } from '../src/core/db/database';
import { createMigrator } from '../src/core/db/migrator';
import { createDatabase, databaseUrl as databaseUrlOf, dropDatabase } from '../test/support/databases';
import type { Cleanup } from './cleanup';
import { BENCH_APPLICATION_NAME } from './cpu';

const DATABASE_PREFIX = 'premium_bench_';

/** The bench's own database (migrated), Redis key prefix and connections, all removed by `cleanup`. */
export interface BenchEnvironment {
  /** This run's id, in its database's name and its Redis keys' prefix. */
  id: string;
  databaseUrl: string;
  redisUrl: string;
  /** For the bench's own queries: seeding, counting, vacuuming. */
  pool: pg.Pool;
  redis: Redis;
  /** Starts every Redis key of this run (the API's rate-limit counters too), all deleted at the end. */
  keyPrefix: string;
  /** A Redis key under the bench's prefix, deleted at the end. */
  key(purpose: string): string;
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: pattern, count: 1000 })) {
    if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
  }
}

export async function createBenchEnvironment(cleanup: Cleanup): Promise<BenchEnvironment> {
  loadDotEnv();
  // Only the servers' addresses are read: unset, NODE_ENV would mean production, which requires its secrets.
  const config = loadConfig({ NODE_ENV: 'development', ...process.env });
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const name = `${DATABASE_PREFIX}${id}`;
  const databaseUrl = databaseUrlOf(name, config.databaseUrl);
  const keyPrefix = `premium:bench:${id}:`;

  await createDatabase(name, { serverUrl: config.databaseUrl });
  const redis = new Redis(config.redisUrl);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    application_name: BENCH_APPLICATION_NAME,
  });
  // A connection lost while idle (the database dropped under an interrupted run) is not an error here.
  pool.on('error', () => undefined);
  // Run last-in first-out: the keys go, then the database, whose dropping ends any query an interrupted
  // run still has in flight (which would keep the pool from ending), then the connections.
  cleanup.add('close the connections', async () => {
    redis.disconnect();
    await pool.end();
  });
  cleanup.add(`drop database ${name}`, () => dropDatabase(name, config.databaseUrl));
  cleanup.add(`delete the Redis keys ${keyPrefix}*`, () => deleteKeys(redis, `${keyPrefix}*`));

  const sequelize = connectDatabase(databaseUrl);
  try {
    await createMigrator(sequelize).up();
  } finally {
    await sequelize.close();
  }

  return {
    id,
    databaseUrl,
    redisUrl: config.redisUrl,
    pool,
    redis,
    keyPrefix,
    key: (purpose) => `${keyPrefix}${purpose}`,
  };
}

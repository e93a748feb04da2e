import { Client } from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import { seedScale } from '../../../bench/scale/seed';
import { createMigrator } from '../../../src/core/db/migrator';
import { createDatabase, databaseUrl, dropDatabase } from '../../support/databases';

/** The last migration a live service may already run: the ones after it must not stop it. */
const DEPLOYED = '011-dispute-history';
const USERS = Number(process.env.ONLINE_MIGRATION_USERS ?? 20_000);
/** Generous: a migration that holds a table for a whole backfill or index build takes far longer. */
const LONGEST_WAIT_BOUND_MS = 5_000;

/**
 * Writes of the live service while the migrations run: new unpaid orders, record changes, ledger rows,
 * one after another; returns how many were made and the longest any took.
 */
function keepWriting(url: string) {
  const client = new Client({ connectionString: url });
  let stopped = false;
  let writes = 0;
  let longestMs = 0;
  const statements = [
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days,
                         amount_paise, next_check_at)
     VALUES ('order_W' || $1, 'receipt-w-' || $1, 1, 'USER', 'Monthly', 30, 19900, now())`,
    `UPDATE user_premiums SET expires_at = expires_at + interval '1 day', version = version + 1,
       updated_at = now() WHERE id = 1 + $1 % 1000`,
    `INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, days, expires_after,
                                 source, actor, version)
     VALUES ('write:' || $1, gen_random_uuid(), 'grant', 'USER', 1, 30, now(), 'manual', 'test', 1)`,
    `UPDATE subscriptions SET updated_at = now() WHERE id = 1 + $1 % 100`,
  ];
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      const started = Date.now();
      await client.query(statements[writes % statements.length]!, [String(writes)]);
      longestMs = Math.max(longestMs, Date.now() - started);
      writes++;
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return { writes, longestMs };
    },
  };
}

/** Samples, every 50 ms, how long the longest query of the database has been waiting for a lock. */
function watchLockWaits(url: string) {
  const client = new Client({ connectionString: url });
  let stopped = false;
  let longestMs = 0;
  const done = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ ms: number | null }>(
        `SELECT max(extract(epoch FROM clock_timestamp() - query_start) * 1000)::float8 AS ms
         FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      longestMs = Math.max(longestMs, rows[0]?.ms ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      return longestMs;
    },
  };
}

describe('the migrations after the deployed ones, on a seeded database while the service writes', () => {
  const name = `${process.env.TEST_RUN_ID}_online_migrations_${process.env.JEST_WORKER_ID}`;
  const url = databaseUrl(name);
  let sequelize: Sequelize;

  beforeAll(async () => {
    await createDatabase(name);
    sequelize = new Sequelize(url, { dialect: 'postgres', logging: false });
    await createMigrator(sequelize).up({ to: DEPLOYED });
    await seedScale(sequelize, USERS);
  }, 600_000);
  afterAll(async () => {
    await sequelize.close();
    await dropDatabase(name);
  });

  it('never keeps a write waiting long, and leaves every index valid', async () => {
    const writer = keepWriting(url);
    const locks = watchLockWaits(url);
    const migrator = createMigrator(sequelize);
    const pending = (await migrator.pending()).map((migration) => migration.name);

    const applied = await migrator.up();

    const writes = await writer.stop();
    const longestLockWaitMs = await locks.stop();
    // The figure docs/migrations.md quotes; printed for the record, bounded generously.
    console.log(
      `online migrations ${pending.join(', ')} over ${USERS} users: ${writes.writes} writes meanwhile, ` +
        `longest write ${writes.longestMs} ms, longest lock wait seen ${Math.round(longestLockWaitMs)} ms`,
    );
    expect(applied.map((migration) => migration.name)).toEqual(pending);
    expect(writes.writes).toBeGreaterThan(0);
    expect(writes.longestMs).toBeLessThan(LONGEST_WAIT_BOUND_MS);
    expect(longestLockWaitMs).toBeLessThan(LONGEST_WAIT_BOUND_MS);
    const invalid = await sequelize.query(
      `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE NOT i.indisvalid`,
      { type: QueryTypes.SELECT },
    );
    expect(invalid).toEqual([]);
    // 027: the records the old code's writes moved meanwhile keep their days in the default tier.
    const unsynced = await sequelize.query(
      `SELECT r.id FROM user_premiums r LEFT JOIN user_premium_days d ON d.record_id = r.id AND d.tier = 'premium'
       WHERE r.version > 0 AND d.ends_at IS DISTINCT FROM r.expires_at`,
      { type: QueryTypes.SELECT },
    );
    expect(unsynced).toEqual([]);
  }, 600_000);
});

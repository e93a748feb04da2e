import { QueryTypes, Sequelize } from 'sequelize';
import { createMigrator } from '../../src/core/db/migrator';
import { createDatabase, databaseUrl, dropDatabase } from '../support/databases';

const TABLES = [
  'code_attempt_failures',
  'job_runs',
  'order_reservations',
  'orders',
  'outbox',
  'premium_code_batches',
  'premium_codes',
  'premium_grants',
  'premium_transfers',
  'server_premiums',
  'subscription_charges',
  'subscriptions',
  'user_guilds',
  'user_premiums',
  'users',
  'webhook_events',
];

describe('migrations', () => {
  const name = `${process.env.TEST_RUN_ID}_migrations_${process.env.JEST_WORKER_ID}`;
  let sequelize: Sequelize;

  beforeAll(async () => {
    await createDatabase(name);
    sequelize = new Sequelize(databaseUrl(name), { dialect: 'postgres', logging: false });
  });
  afterAll(async () => {
    await sequelize.close();
    await dropDatabase(name);
  });

  async function tables(): Promise<string[]> {
    const rows = await sequelize.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY 1`,
      { type: QueryTypes.SELECT },
    );
    return rows.map((row) => row.name);
  }

  it('go up, all the way down, and up again', async () => {
    const migrator = createMigrator(sequelize);
    const applied = await migrator.up();
    expect(applied.length).toBeGreaterThan(0);
    expect(await tables()).toEqual(TABLES);
    expect(await migrator.pending()).toEqual([]);

    await migrator.down({ to: 0 });
    expect(await tables()).toEqual([]);
    expect((await migrator.executed()).length).toBe(0);

    await migrator.up();
    expect(await tables()).toEqual(TABLES);
  });
});

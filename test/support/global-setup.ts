import { randomBytes } from 'node:crypto';
import type { Config } from '@jest/types';
import { Sequelize } from 'sequelize';
import { createMigrator } from '../../src/core/db/migrator';
import { createDatabase, databaseUrl, dropStaleRunDatabases, TEST_DATABASE_PREFIX } from './databases';

/** Creates a migrated template database for this run and one copy of it per jest worker. */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  await dropStaleRunDatabases();
  const runId = `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  process.env.TEST_RUN_ID = runId;
  const template = `${runId}_template`;
  await createDatabase(template);
  const sequelize = new Sequelize(databaseUrl(template), { dialect: 'postgres', logging: false });
  await createMigrator(sequelize).up();
  // What the migrations seeded, which each test's reset restores (context.ts).
  await sequelize.query('CREATE TABLE seeded_tiers AS TABLE tiers; CREATE TABLE seeded_plans AS TABLE plans');
  await sequelize.close();
  for (let worker = 1; worker <= globalConfig.maxWorkers; worker++) {
    await createDatabase(`${runId}_${worker}`, { template });
  }
}

import fs from 'node:fs';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug, type MigrationFn } from 'umzug';

export type Migration = MigrationFn<Sequelize>;

/** `migrations/` sits beside `src/` both in the source tree and in `dist/`. */
const MIGRATIONS_DIR = path.resolve(__dirname, '../../../migrations');
const MIGRATION_FILE = /^\d{3}-[\w-]+\.(ts|js)$/;

interface MigrationModule {
  up: Migration;
  down: Migration;
}

/**
 * Migrations are named without their extension so that `001-x.ts` (source, tests, tsx) and `001-x.js`
 * (compiled) are the same migration.
 */
function listMigrations() {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => MIGRATION_FILE.test(file))
    .sort()
    .map((file) => {
      const name = file.replace(/\.(ts|js)$/, '');
      // Loaded by path at run time: .ts under tsx and jest, .js once compiled.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const load = () => require(path.join(MIGRATIONS_DIR, file)) as MigrationModule;
      return {
        name,
        up: (params: Parameters<Migration>[0]) => load().up(params),
        down: (params: Parameters<Migration>[0]) => load().down(params),
      };
    });
}

/**
 * Runs the migrations in order, each without a transaction around it: a migration's every query is its
 * own, so one made of the steps of online-migration.ts (CREATE INDEX CONCURRENTLY, batched backfills,
 * NOT VALID then VALIDATE) never holds a lock for long (docs/migrations.md).
 */
export function createMigrator(
  sequelize: Sequelize,
  logger: Umzug<Sequelize>['options']['logger'] = undefined,
) {
  return new Umzug({
    migrations: listMigrations(),
    context: sequelize,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger,
  });
}

import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

const TABLES = ['orders', 'subscription_charges'] as const;

/**
 * `given_back_grant_id` becomes `restore_grant_id`, the disputes' word (src/core/disputes/README.md).
 * A RENAME would break the version still running while this deploys (docs/migrations.md), so the new
 * column is added beside the old one and a trigger copies a write of either into the other until a later
 * migration, once no running code names `given_back_grant_id`, drops it and the trigger.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE OR REPLACE FUNCTION mirror_restore_grant_id() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        NEW.restore_grant_id := COALESCE(NEW.restore_grant_id, NEW.given_back_grant_id);
        NEW.given_back_grant_id := NEW.restore_grant_id;
      ELSIF NEW.restore_grant_id IS DISTINCT FROM OLD.restore_grant_id THEN
        NEW.given_back_grant_id := NEW.restore_grant_id;
      ELSE
        NEW.restore_grant_id := NEW.given_back_grant_id;
      END IF;
      RETURN NEW;
    END $$`);
  for (const table of TABLES) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS restore_grant_id bigint`);
    await addConstraintOnline(
      sequelize,
      table,
      `${table}_restore_grant_id_fkey`,
      'FOREIGN KEY (restore_grant_id) REFERENCES premium_grants (id)',
    );
    await alterBriefly(
      sequelize,
      `CREATE OR REPLACE TRIGGER ${table}_mirror_restore_grant_id
         BEFORE INSERT OR UPDATE OF given_back_grant_id, restore_grant_id ON ${table}
         FOR EACH ROW EXECUTE FUNCTION mirror_restore_grant_id()`,
    );
    await backfillInBatches(
      sequelize,
      table,
      `UPDATE ${table} SET restore_grant_id = given_back_grant_id
       WHERE id BETWEEN $1 AND $2 AND restore_grant_id IS NULL AND given_back_grant_id IS NOT NULL`,
    );
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const table of TABLES) {
    await alterBriefly(
      sequelize,
      `DROP TRIGGER IF EXISTS ${table}_mirror_restore_grant_id ON ${table};
       ALTER TABLE ${table} DROP COLUMN IF EXISTS restore_grant_id`,
    );
  }
  await sequelize.query('DROP FUNCTION IF EXISTS mirror_restore_grant_id()');
};

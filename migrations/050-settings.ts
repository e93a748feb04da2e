import type { Migration } from '../src/core/db/migrator';

/**
 * The seller's settings (docs/settings.md): `settings` holds each one a seller changed in the console or
 * with `premium settings` (or that the environment seeded), by its variable's name, as the environment
 * spells it; `setting_changes` is the audit, one row per change, with who made it and the value before
 * and after (a webhook URL's token is never written there). New tables, referenced by none: creating
 * them locks nothing a live service uses.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS settings (
      name       text PRIMARY KEY CHECK (name ~ '^[A-Z][A-Z0-9_]{0,63}$'),
      value      text NOT NULL,
      updated_by text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS setting_changes (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name       text NOT NULL,
      old_value  text,
      new_value  text,
      changed_by text NOT NULL,
      changed_at timestamptz NOT NULL DEFAULT now()
    )`);
  await sequelize.query(
    'CREATE INDEX IF NOT EXISTS setting_changes_by_time ON setting_changes (changed_at DESC, id DESC)',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE IF EXISTS setting_changes');
  await sequelize.query('DROP TABLE IF EXISTS settings');
};

import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The buyer's `expiring` message (docs/buyer-messages.md): the expiry a record's holder was last told
 * of, so that the reminders job tells them once per expiry (one the holder extends is a new one). A
 * nullable column on each record table: no rewrite, no stop to writes.
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const table of ['user_premiums', 'server_premiums']) {
    await alterBriefly(
      sequelize,
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS expiring_messaged_for timestamptz`,
    );
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const table of ['user_premiums', 'server_premiums']) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} DROP COLUMN IF EXISTS expiring_messaged_for`);
  }
};

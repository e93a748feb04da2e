import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * An order of kind `upgrade` (docs/payments.md, "The upgrade kind"): it buys turning the buyer's days of
 * `upgrade_from_tier` on its target into days of its own tier. NULL on every other order, so the column
 * is added without a rewrite and every running version keeps writing orders as before.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE orders ADD COLUMN IF NOT EXISTS upgrade_from_tier text');
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE orders DROP COLUMN IF EXISTS upgrade_from_tier');
};

import type { Migration } from '../src/core/db/migrator';

/**
 * `expiry_reminded_for` is the expiry that `*_PREMIUM_EXPIRING` was announced for, so each record is
 * reminded once per expiry: again after an extension or a revoke moves it, never twice for the same one.
 * The reminder job's scan uses the existing `(expires_at)` indexes.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE user_premiums ADD COLUMN expiry_reminded_for timestamptz;
    ALTER TABLE server_premiums ADD COLUMN expiry_reminded_for timestamptz;
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE server_premiums DROP COLUMN expiry_reminded_for;
    ALTER TABLE user_premiums DROP COLUMN expiry_reminded_for;
  `);
};

import type { Migration } from '../src/core/db/migrator';
import {
  addConstraintOnline,
  alterBriefly,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

/**
 * A gift (docs/codes.md, "Gift codes bought in the store"): an order with `gift` buys one gift code of
 * its plan, and the code its payment made names that payment (`premium_codes.payment_id`, unique: one
 * code per payment however often it is applied) and keeps the code in clear (`premium_codes.code`) so
 * its buyer can read it again; codes an operator makes keep only their SHA-256, as before. Constant
 * defaults and nullable columns: no rewrite, and a running version writes orders and codes as before.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    'ALTER TABLE orders ADD COLUMN IF NOT EXISTS gift boolean NOT NULL DEFAULT false',
  );
  await alterBriefly(
    sequelize,
    'ALTER TABLE premium_codes ADD COLUMN IF NOT EXISTS payment_id text, ADD COLUMN IF NOT EXISTS code text',
  );
  await createIndexConcurrently(sequelize, 'premium_codes_payment_id_key', 'ON premium_codes (payment_id)', {
    unique: true,
  });
  await addConstraintOnline(
    sequelize,
    'premium_codes',
    'premium_codes_payment_id_fkey',
    'FOREIGN KEY (payment_id) REFERENCES payments (payment_id)',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    'ALTER TABLE premium_codes DROP CONSTRAINT IF EXISTS premium_codes_payment_id_fkey',
  );
  await dropIndexConcurrently(sequelize, 'premium_codes_payment_id_key');
  await alterBriefly(
    sequelize,
    'ALTER TABLE premium_codes DROP COLUMN IF EXISTS payment_id, DROP COLUMN IF EXISTS code',
  );
  await alterBriefly(sequelize, 'ALTER TABLE orders DROP COLUMN IF EXISTS gift');
};

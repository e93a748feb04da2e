import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * Tax invoices as the accountant files them (docs/invoices.md). The buyer's address, PIN and country
 * (a buyer abroad) on orders and subscriptions, and on each invoice as issued; whether an invoice is an
 * export under the seller's LUT (its reference, copied like the other settings) and the period its service
 * covers; a credit note's reason. `billing_details` keeps each buyer's last billing so the store fills it
 * in next time. All columns nullable: documents issued before keep what they had (they are frozen), and
 * the old code writes rows without them meanwhile.
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const table of ['orders', 'subscriptions']) {
    await alterBriefly(
      sequelize,
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS billing_address text,
         ADD COLUMN IF NOT EXISTS billing_pincode text, ADD COLUMN IF NOT EXISTS billing_country text`,
    );
  }
  await alterBriefly(
    sequelize,
    `ALTER TABLE invoices ADD COLUMN IF NOT EXISTS buyer_address text,
       ADD COLUMN IF NOT EXISTS buyer_pincode text, ADD COLUMN IF NOT EXISTS buyer_country text,
       ADD COLUMN IF NOT EXISTS export_lut text, ADD COLUMN IF NOT EXISTS period_from date,
       ADD COLUMN IF NOT EXISTS period_to date`,
  );
  await alterBriefly(sequelize, 'ALTER TABLE credit_notes ADD COLUMN IF NOT EXISTS reason text');
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS billing_details (
       user_id     bigint PRIMARY KEY REFERENCES users (id),
       state_code  text,
       gstin       text,
       name        text,
       address     text,
       pincode     text,
       country     text,
       updated_at  timestamptz NOT NULL DEFAULT now()
     )`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE billing_details');
  await sequelize.query('ALTER TABLE credit_notes DROP COLUMN reason');
  await sequelize.query(
    `ALTER TABLE invoices DROP COLUMN buyer_address, DROP COLUMN buyer_pincode, DROP COLUMN buyer_country,
       DROP COLUMN export_lut, DROP COLUMN period_from, DROP COLUMN period_to`,
  );
  for (const table of ['orders', 'subscriptions']) {
    await sequelize.query(
      `ALTER TABLE ${table} DROP COLUMN billing_address, DROP COLUMN billing_pincode, DROP COLUMN billing_country`,
    );
  }
};

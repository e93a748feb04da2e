import type { Migration } from '../src/core/db/migrator';

/**
 * The last declined attempt to pay an order (Razorpay's `payment.failed`): the buyer sees it failed and
 * pays again, instead of an order that looks pending. A later capture pays the order as before.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders
      ADD COLUMN failed_payment_id text,
      ADD COLUMN payment_failure text,
      ADD COLUMN payment_failed_at timestamptz;
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders DROP COLUMN failed_payment_id, DROP COLUMN payment_failure, DROP COLUMN payment_failed_at;
  `);
};

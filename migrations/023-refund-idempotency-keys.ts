import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * Refunds from our side, asked one at a time per payment and never twice for one request:
 * - `payment_refunds.asked_at`: when Razorpay was last asked for a `requested` row, null once no one is
 *   asking. A row asked for a moment ago is being asked: another refund of the payment waits for it; one
 *   asked long ago lost its asker (a crash), and the next refund takes it over.
 * - `payment_refund_keys`: each idempotency key an operator's refund was asked under (the console makes
 *   one per dialog, the CLI one per run), and the row it asked for. A key that took over an unconfirmed
 *   row names that row too, so repeating any of them answers the one refund.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE payment_refunds ADD COLUMN IF NOT EXISTS asked_at timestamptz');
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS payment_refund_keys (
      idempotency_key text PRIMARY KEY,
      refund_row_id   bigint NOT NULL REFERENCES payment_refunds (id),
      created_at      timestamptz NOT NULL DEFAULT now()
    )`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE IF EXISTS payment_refund_keys');
  await alterBriefly(sequelize, 'ALTER TABLE payment_refunds DROP COLUMN IF EXISTS asked_at');
};

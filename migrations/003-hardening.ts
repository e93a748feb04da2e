import type { Migration } from '../src/core/db/migrator';

/**
 * Orders (issue 18):
 * - `next_check_at` / `checks_made`: when the reconciler next asks Razorpay about an unpaid order, at
 *   growing intervals; NULL once it has stopped asking (or the order is no longer unpaid).
 * - `refunded_payment_ids`: payments refunded in full while the order was still unpaid. They can never
 *   pay it, but another payment still can.
 * - `dispute_id` / `dispute_status`: the order's chargeback (open, won, lost, closed); status `disputed`
 *   while one is open and its grant is revoked.
 * - an index for the per-buyer count of unpaid orders (MAX_OPEN_ORDERS) and for the reconciler's due ones.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders
      ADD COLUMN next_check_at timestamptz,
      ADD COLUMN checks_made integer NOT NULL DEFAULT 0,
      ADD COLUMN refunded_payment_ids text[] NOT NULL DEFAULT '{}',
      ADD COLUMN dispute_id text,
      ADD COLUMN dispute_status text CHECK (dispute_status IN ('open', 'won', 'lost', 'closed')),
      ADD CHECK ((dispute_id IS NULL) = (dispute_status IS NULL)),
      DROP CONSTRAINT orders_status_check,
      ADD CONSTRAINT orders_status_check CHECK (status IN ('created', 'paid', 'refunded', 'disputed'));
    UPDATE orders SET next_check_at = GREATEST(created_at + interval '5 minutes', now())
      WHERE status = 'created';
    CREATE INDEX orders_open_by_buyer ON orders (buyer_user_id, created_at) WHERE status = 'created';
    CREATE INDEX orders_next_check ON orders (next_check_at) WHERE status = 'created';
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP INDEX orders_next_check;
    DROP INDEX orders_open_by_buyer;
    UPDATE orders SET status = 'refunded' WHERE status = 'disputed';
    ALTER TABLE orders
      DROP CONSTRAINT orders_status_check,
      ADD CONSTRAINT orders_status_check CHECK (status IN ('created', 'paid', 'refunded')),
      DROP COLUMN dispute_status,
      DROP COLUMN dispute_id,
      DROP COLUMN refunded_payment_ids,
      DROP COLUMN checks_made,
      DROP COLUMN next_check_at;
  `);
};

import type { Migration } from '../src/core/db/migrator';

/**
 * Disputes kept one by one (`payment_disputes`): a payment can see several, in any order of their
 * stages, and each dispute's stage decides what its next delivery may still do; the order's or charge's
 * own `dispute_id` / `dispute_status` stay as the latest, for display. And the grant a won dispute gave
 * back, kept on the order or charge it belongs to, so that a later refund or dispute takes that one.
 * Both filled from what is there: the rows' latest disputes, and the newest given-back grant whose
 * reason names the row (`dispute <id> won (order <id>)`, `… (subscription <id> payment <id>)`).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE payment_disputes (
      dispute_id text PRIMARY KEY,
      order_id   bigint REFERENCES orders (id),
      charge_id  bigint REFERENCES subscription_charges (id),
      status     text NOT NULL CHECK (status IN ('open', 'won', 'lost', 'closed')),
      -- Its created was applied (a closed one may or may not have been opened).
      opened     boolean NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((order_id IS NULL) <> (charge_id IS NULL))
    );
    CREATE INDEX payment_disputes_order ON payment_disputes (order_id);
    CREATE INDEX payment_disputes_charge ON payment_disputes (charge_id);
    INSERT INTO payment_disputes (dispute_id, order_id, status, opened)
      SELECT dispute_id, id, dispute_status, status = 'disputed' FROM orders WHERE dispute_id IS NOT NULL;
    INSERT INTO payment_disputes (dispute_id, charge_id, status, opened)
      SELECT dispute_id, id, dispute_status, status = 'disputed' FROM subscription_charges
      WHERE dispute_id IS NOT NULL;

    ALTER TABLE orders ADD COLUMN given_back_grant_id bigint REFERENCES premium_grants (id);
    ALTER TABLE subscription_charges ADD COLUMN given_back_grant_id bigint REFERENCES premium_grants (id);
    CREATE TEMPORARY TABLE given_back ON COMMIT DROP AS
      SELECT substring(reason FROM ' won \\((.*)\\)$') AS payment_name, max(id) AS id FROM premium_grants
      WHERE kind = 'grant' AND idempotency_key LIKE 'dispute:%:won'
      GROUP BY 1;
    UPDATE orders o SET given_back_grant_id = g.id
    FROM given_back g WHERE g.payment_name = 'order ' || o.processor_order_id;
    UPDATE subscription_charges c SET given_back_grant_id = g.id
    FROM given_back g, subscriptions s
    WHERE s.id = c.subscription_id
      AND g.payment_name = 'subscription ' || s.processor_subscription_id || ' payment ' || c.payment_id;
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders DROP COLUMN given_back_grant_id;
    ALTER TABLE subscription_charges DROP COLUMN given_back_grant_id;
    DROP TABLE payment_disputes;
  `);
};

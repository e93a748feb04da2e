import type { Migration } from '../src/core/db/migrator';

/**
 * The seller's desk (reports and refunds from our side).
 *
 * - (`payment_disputes`' `respond_by` and `amount_paise`, which the reports read, come from 012.)
 * - `payment_refunds`: one row per refund of an order's or a subscription charge's payment, whoever
 *   started it (our `requestRefund`, or Razorpay's dashboard seen through `refund.processed`). A row we
 *   start is written before Razorpay is asked (`requested`, with its receipt), so a retry after a lost
 *   answer finds it rather than refunding twice. `days_taken`: premium days this refund took back.
 *   Refunds recorded before this migration (orders and charges `refunded` without a lost dispute) are
 *   filled in as processed full refunds at their `refunded_at`, without a refund id.
 * - `subscription_status_changes`: every change of a subscription's status with its time, written by a
 *   trigger so that every code path that updates the status is covered; filled from what is there (the
 *   creation, and the current status at `updated_at`). Churn and movements are read from it.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE payment_refunds (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      refund_id     text UNIQUE,
      order_id      bigint REFERENCES orders (id),
      charge_id     bigint REFERENCES subscription_charges (id),
      payment_id    text NOT NULL,
      amount_paise  integer NOT NULL CHECK (amount_paise > 0),
      status        text NOT NULL CHECK (status IN ('requested', 'pending', 'processed', 'failed')),
      receipt       text UNIQUE,
      reason        text,
      actor         text,
      days_taken    integer NOT NULL DEFAULT 0,
      created_at    timestamptz NOT NULL DEFAULT now(),
      processed_at  timestamptz,
      CHECK ((order_id IS NULL) <> (charge_id IS NULL)),
      CHECK ((status = 'processed') = (processed_at IS NOT NULL))
    );
    CREATE INDEX payment_refunds_payment ON payment_refunds (payment_id);
    CREATE INDEX payment_refunds_processed ON payment_refunds (processed_at) WHERE status = 'processed';
    INSERT INTO payment_refunds (order_id, payment_id, amount_paise, status, processed_at, created_at)
      SELECT o.id, o.payment_id, o.amount_paise, 'processed', o.refunded_at, o.refunded_at FROM orders o
      WHERE o.status = 'refunded' AND o.payment_id IS NOT NULL AND o.refunded_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM payment_disputes d WHERE d.order_id = o.id AND d.status = 'lost');
    INSERT INTO payment_refunds (charge_id, payment_id, amount_paise, status, processed_at, created_at)
      SELECT c.id, c.payment_id, c.amount_paise, 'processed', c.refunded_at, c.refunded_at
      FROM subscription_charges c
      WHERE c.status = 'refunded' AND c.refunded_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM payment_disputes d WHERE d.charge_id = c.id AND d.status = 'lost');

    CREATE TABLE subscription_status_changes (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subscription_id bigint NOT NULL REFERENCES subscriptions (id),
      status          text NOT NULL,
      changed_at      timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX subscription_status_changes_time ON subscription_status_changes (changed_at);
    CREATE INDEX subscription_status_changes_subscription
      ON subscription_status_changes (subscription_id, changed_at);
    INSERT INTO subscription_status_changes (subscription_id, status, changed_at)
      SELECT id, 'created', created_at FROM subscriptions;
    INSERT INTO subscription_status_changes (subscription_id, status, changed_at)
      SELECT id, status, updated_at FROM subscriptions WHERE status <> 'created';

    CREATE FUNCTION record_subscription_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO subscription_status_changes (subscription_id, status, changed_at)
        VALUES (NEW.id, NEW.status, now());
      RETURN NEW;
    END $$;
    CREATE TRIGGER subscriptions_status_insert AFTER INSERT ON subscriptions
      FOR EACH ROW EXECUTE FUNCTION record_subscription_status();
    CREATE TRIGGER subscriptions_status_update AFTER UPDATE OF status ON subscriptions
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION record_subscription_status();
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TRIGGER subscriptions_status_update ON subscriptions;
    DROP TRIGGER subscriptions_status_insert ON subscriptions;
    DROP FUNCTION record_subscription_status();
    DROP TABLE subscription_status_changes, payment_refunds;
  `);
};

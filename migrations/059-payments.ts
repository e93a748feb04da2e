import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

/**
 * `payments`: one row per money received (docs/payments.md), keyed by Razorpay's payment id, which
 * `payment_refunds`, `invoices` and `credit_notes` (through their invoice) already name: what hangs off
 * a payment finds it by that key. Its source is an order (its captured payment, or one a dispute or
 * refund made known before the order was applied) or a subscription charge; the row says once what was
 * bought with it (buyer, target, plan, tier, days, slots, offer, billing) and its purchase kind.
 *
 * The rows are written by triggers on the two sources, in the transaction that records the money, so
 * every path that records one (verify-payment, the webhook, the reconciler, a dispute that comes first)
 * is covered, and so is a version still running beside this one during a deploy. The rows already there
 * are copied in batches of ids afterwards (ON CONFLICT: a row a trigger wrote meanwhile stays).
 * The purchase kind is fixed at payment: `bundle` for more than one slot, else `single`.
 */
const ORDER_AS_PAYMENT = `
  SELECT o.payment_id, 'order', o.id, NULL::bigint, o.buyer_user_id,
         CASE WHEN o.slots > 1 THEN 'bundle' ELSE 'single' END,
         o.amount_paise, o.currency, o.category, o.guild_id, o.plan_type, o.months, o.duration_days,
         o.tier, o.slots, o.offer_id, o.billing_state_code, o.billing_gstin, o.billing_country,
         COALESCE(o.paid_at, o.updated_at)
  FROM orders o`;
const CHARGE_AS_PAYMENT = `
  SELECT c.payment_id, 'charge', NULL::bigint, c.id, s.buyer_user_id,
         CASE WHEN s.slots > 1 THEN 'bundle' ELSE 'single' END,
         c.amount_paise, c.currency, s.category, s.guild_id, s.plan_type, NULL::integer, s.duration_days,
         s.tier, s.slots, NULL::bigint, s.billing_state_code, s.billing_gstin, s.billing_country,
         c.created_at
  FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id`;
const INTO_PAYMENTS = `INSERT INTO payments (payment_id, source, order_id, charge_id, buyer_user_id, kind,
  amount_paise, currency, category, guild_id, plan_type, months, days, tier, slots, offer_id,
  billing_state_code, billing_gstin, billing_country, paid_at)`;

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS payments (
      payment_id          text PRIMARY KEY,
      source              text NOT NULL CHECK (source IN ('order', 'charge')),
      order_id            bigint UNIQUE REFERENCES orders (id),
      charge_id           bigint UNIQUE REFERENCES subscription_charges (id),
      buyer_user_id       bigint NOT NULL REFERENCES users (id),
      kind                text NOT NULL,
      amount_paise        integer NOT NULL,
      currency            text NOT NULL,
      category            text NOT NULL,
      guild_id            text,
      plan_type           text NOT NULL,
      months              integer,
      days                integer NOT NULL,
      tier                text NOT NULL,
      slots               integer NOT NULL,
      offer_id            bigint,
      billing_state_code  text,
      billing_gstin       text,
      billing_country     text,
      paid_at             timestamptz NOT NULL,
      CHECK ((source = 'order') = (order_id IS NOT NULL)),
      CHECK ((source = 'charge') = (charge_id IS NOT NULL))
    );
    CREATE INDEX IF NOT EXISTS payments_by_buyer ON payments (buyer_user_id, paid_at);
    CREATE INDEX IF NOT EXISTS payments_by_time ON payments (paid_at)`);
  await alterBriefly(
    sequelize,
    `CREATE OR REPLACE FUNCTION order_into_payments() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       ${INTO_PAYMENTS} ${ORDER_AS_PAYMENT} WHERE o.id = NEW.id ON CONFLICT DO NOTHING;
       RETURN NULL;
     END $$;
     DROP TRIGGER IF EXISTS orders_into_payments ON orders;
     CREATE TRIGGER orders_into_payments AFTER INSERT OR UPDATE OF payment_id ON orders
       FOR EACH ROW WHEN (NEW.payment_id IS NOT NULL) EXECUTE FUNCTION order_into_payments();
     CREATE OR REPLACE FUNCTION charge_into_payments() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       ${INTO_PAYMENTS} ${CHARGE_AS_PAYMENT} WHERE c.id = NEW.id ON CONFLICT DO NOTHING;
       RETURN NULL;
     END $$;
     DROP TRIGGER IF EXISTS subscription_charges_into_payments ON subscription_charges;
     CREATE TRIGGER subscription_charges_into_payments AFTER INSERT ON subscription_charges
       FOR EACH ROW EXECUTE FUNCTION charge_into_payments()`,
  );
  await backfillInBatches(
    sequelize,
    'orders',
    `${INTO_PAYMENTS} ${ORDER_AS_PAYMENT}
     WHERE o.id BETWEEN $1 AND $2 AND o.payment_id IS NOT NULL ON CONFLICT DO NOTHING`,
  );
  await backfillInBatches(
    sequelize,
    'subscription_charges',
    `${INTO_PAYMENTS} ${CHARGE_AS_PAYMENT} WHERE c.id BETWEEN $1 AND $2 ON CONFLICT DO NOTHING`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TRIGGER IF EXISTS orders_into_payments ON orders;
    DROP TRIGGER IF EXISTS subscription_charges_into_payments ON subscription_charges;
    DROP FUNCTION IF EXISTS order_into_payments();
    DROP FUNCTION IF EXISTS charge_into_payments();
    DROP TABLE IF EXISTS payments`);
};

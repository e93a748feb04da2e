import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The money events of the webhooks to the seller's systems (docs/webhooks.md): `sale` and `renewal` (a
 * row of `payments`, by its source), `refund` (a `payment_refunds` row becoming processed), `dispute`
 * (a dispute opened, won or lost), `charge_failed` (a subscription entering pending or halted, where the
 * buyer's charge_failed message is queued) and `invoice` (an invoice, receipt or credit note issued).
 *
 * Each is queued by a trigger on the table that records it, as migration 056 does for `premium_changed`:
 * every path that records one (verify-payment, the webhook, the reconciler, an operator) is covered
 * without calling anything. The triggers are deferred to the commit, still inside the transaction: the
 * body sees everything the transaction recorded (a dispute that makes its payment known writes the
 * dispute row before the payment's). The event id is derived from what the event is about (md5 of its
 * type and key, as a uuid), so the same fact applied twice has the same id, and `webhook_deliveries`'
 * key lets it through once per endpoint. With no endpoint wanting a type, a trigger costs one index scan.
 * Triggers only: nothing a live service reads is locked for long (each CREATE TRIGGER takes a brief
 * SHARE ROW EXCLUSIVE lock, under alterBriefly's lock timeout).
 */
const FUNCTIONS = `
  CREATE SEQUENCE IF NOT EXISTS webhook_event_sequence;

  CREATE OR REPLACE FUNCTION webhook_time(t timestamptz) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

  CREATE OR REPLACE FUNCTION webhook_wanted(event_type text) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$ SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE disabled_at IS NULL AND event_type = ANY (events)) $$;

  CREATE OR REPLACE FUNCTION webhook_buyer(user_id bigint) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$ SELECT jsonb_build_object('discordId', provider_id, 'username', username) FROM users WHERE id = user_id $$;

  CREATE OR REPLACE FUNCTION webhook_payment(of_payment text) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT jsonb_build_object(
      'paymentId', p.payment_id, 'source', p.source,
      'orderId', o.processor_order_id, 'subscriptionId', s.processor_subscription_id,
      'amountPaise', p.amount_paise, 'currency', p.currency,
      'buyer', webhook_buyer(p.buyer_user_id),
      'target', jsonb_build_object('category', p.category, 'guildId', p.guild_id),
      'plan', p.plan_type, 'months', p.months, 'days', p.days, 'tier', p.tier, 'slots', p.slots,
      'kind', p.kind, 'offerId', p.offer_id::text, 'paidAt', webhook_time(p.paid_at))
    FROM payments p
    LEFT JOIN orders o ON o.id = p.order_id
    LEFT JOIN subscription_charges c ON c.id = p.charge_id
    LEFT JOIN subscriptions s ON s.id = c.subscription_id
    WHERE p.payment_id = of_payment $$;

  CREATE OR REPLACE FUNCTION queue_money_webhook(event_type text, event_key text, data jsonb) RETURNS void
  LANGUAGE plpgsql AS $$
  DECLARE
    fresh_id uuid := md5(event_type || ':' || event_key)::uuid;
    body jsonb := jsonb_build_object('eventId', fresh_id, 'occurredAt', webhook_time(now()),
      'sequence', nextval('webhook_event_sequence')) || data;
  BEGIN
    WITH fresh AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id)
      SELECT id, fresh_id FROM webhook_endpoints WHERE disabled_at IS NULL AND event_type = ANY (events)
      ON CONFLICT DO NOTHING
      RETURNING endpoint_id)
    INSERT INTO jobs (kind, payload, dedupe_key)
    SELECT 'webhook_delivery', jsonb_build_object('endpointId', endpoint_id, 'type', event_type, 'event', body),
           'webhook:' || endpoint_id || ':' || fresh_id
    FROM fresh
    ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING;
  END $$;

  CREATE OR REPLACE FUNCTION payment_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE event_type text := CASE NEW.source WHEN 'order' THEN 'sale' ELSE 'renewal' END;
  BEGIN
    IF webhook_wanted(event_type) THEN
      PERFORM queue_money_webhook(event_type, NEW.payment_id,
        jsonb_build_object('payment', webhook_payment(NEW.payment_id)));
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION refund_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('refund') THEN
      PERFORM queue_money_webhook('refund', r.id::text, jsonb_build_object(
        'refund', jsonb_build_object('refundId', r.refund_id, 'amountPaise', r.amount_paise,
          'processedAt', webhook_time(r.processed_at), 'reason', r.reason),
        'payment', webhook_payment(r.payment_id)))
      FROM payment_refunds r WHERE r.id = NEW.id;
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION dispute_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('dispute') THEN
      PERFORM queue_money_webhook('dispute', d.dispute_id || ':' || NEW.status, jsonb_build_object(
        'dispute', jsonb_build_object('disputeId', d.dispute_id, 'status', NEW.status,
          'amountPaise', d.amount_paise, 'amountDeductedPaise', d.amount_deducted_paise,
          'reasonCode', d.reason_code, 'phase', d.phase, 'respondBy', webhook_time(d.respond_by)),
        'payment', webhook_payment(COALESCE(o.payment_id, c.payment_id))))
      FROM payment_disputes d
      LEFT JOIN orders o ON o.id = d.order_id
      LEFT JOIN subscription_charges c ON c.id = d.charge_id
      WHERE d.dispute_id = NEW.dispute_id;
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION charge_failed_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('charge_failed') THEN
      PERFORM queue_money_webhook('charge_failed', NEW.id || ':' || NEW.paid_count, jsonb_build_object(
        'subscription', jsonb_build_object('subscriptionId', NEW.processor_subscription_id,
          'status', NEW.status, 'amountPaise', NEW.amount_paise, 'currency', 'INR',
          'buyer', webhook_buyer(NEW.buyer_user_id),
          'target', jsonb_build_object('category', NEW.category, 'guildId', NEW.guild_id),
          'plan', NEW.plan_type, 'days', NEW.duration_days, 'tier', NEW.tier, 'slots', NEW.slots,
          'paidCount', NEW.paid_count, 'currentEnd', webhook_time(NEW.current_end),
          'chargeAt', webhook_time(NEW.charge_at))));
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION invoice_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('invoice') THEN
      PERFORM queue_money_webhook('invoice', 'invoice:' || NEW.id, jsonb_build_object(
        'document', jsonb_build_object('kind', NEW.kind, 'number', NEW.number,
          'issuedAt', webhook_time(NEW.issued_at), 'currency', NEW.currency,
          'taxablePaise', NEW.taxable_paise, 'cgstPaise', NEW.cgst_paise, 'sgstPaise', NEW.sgst_paise,
          'igstPaise', NEW.igst_paise, 'totalPaise', NEW.total_paise,
          'placeOfSupply', NEW.place_of_supply, 'buyerGstin', NEW.buyer_gstin),
        'payment', webhook_payment(NEW.payment_id)));
    END IF;
    RETURN NULL;
  END $$;

  CREATE OR REPLACE FUNCTION credit_note_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('invoice') THEN
      PERFORM queue_money_webhook('invoice', 'credit_note:' || NEW.id, jsonb_build_object(
        'document', jsonb_build_object('kind', 'credit_note', 'number', NEW.number,
          'issuedAt', webhook_time(NEW.issued_at), 'currency', i.currency,
          'taxablePaise', NEW.taxable_paise, 'cgstPaise', NEW.cgst_paise, 'sgstPaise', NEW.sgst_paise,
          'igstPaise', NEW.igst_paise, 'totalPaise', NEW.total_paise,
          'invoiceNumber', i.number, 'refundId', NEW.refund_id, 'reason', NEW.reason),
        'payment', webhook_payment(i.payment_id)))
      FROM invoices i WHERE i.id = NEW.invoice_id;
    END IF;
    RETURN NULL;
  END $$`;

/** Each deferred to the commit (see above): [trigger, table, events, condition or null, function]. */
const TRIGGERS = [
  ['payments_to_webhooks', 'payments', 'INSERT', null, 'payment_to_webhooks'],
  [
    'payment_refunds_to_webhooks',
    'payment_refunds',
    'INSERT OR UPDATE OF status',
    "NEW.status = 'processed'",
    'refund_to_webhooks',
  ],
  [
    'payment_disputes_to_webhooks',
    'payment_disputes',
    'INSERT OR UPDATE OF status',
    "NEW.status IN ('open', 'won', 'lost')",
    'dispute_to_webhooks',
  ],
  [
    'subscriptions_charge_failed_to_webhooks',
    'subscriptions',
    'UPDATE OF status',
    "NEW.status IN ('pending', 'halted') AND OLD.status NOT IN ('pending', 'halted')",
    'charge_failed_to_webhooks',
  ],
  ['invoices_to_webhooks', 'invoices', 'INSERT', null, 'invoice_to_webhooks'],
  ['credit_notes_to_webhooks', 'credit_notes', 'INSERT', null, 'credit_note_to_webhooks'],
] as const;

function definition([name, table, events, condition, fn]: (typeof TRIGGERS)[number]): string {
  return `DROP TRIGGER IF EXISTS ${name} ON ${table};
    CREATE CONSTRAINT TRIGGER ${name} AFTER ${events} ON ${table} DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW ${condition ? `WHEN (${condition})` : ''} EXECUTE FUNCTION ${fn}()`;
}

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(FUNCTIONS);
  for (const trigger of TRIGGERS) await alterBriefly(sequelize, definition(trigger));
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const [name, table, , , fn] of TRIGGERS)
    await sequelize.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}; DROP FUNCTION IF EXISTS ${fn}()`);
  await sequelize.query(`
    DROP FUNCTION IF EXISTS queue_money_webhook(text, text, jsonb);
    DROP FUNCTION IF EXISTS webhook_payment(text);
    DROP FUNCTION IF EXISTS webhook_buyer(bigint);
    DROP FUNCTION IF EXISTS webhook_wanted(text);
    DROP FUNCTION IF EXISTS webhook_time(timestamptz);
    DROP SEQUENCE IF EXISTS webhook_event_sequence`);
};

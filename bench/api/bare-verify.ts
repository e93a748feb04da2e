// The floor of verify-payment: the same token check and signature check, then every row a paid order must
// write, written by hand in one statement and sent with BEGIN, the idempotency lock and COMMIT in one round
// trip on a pipelined pg connection (prepared statements). The rows: the order paid; the buyer's record
// created or extended, with its tier's days; the ledger row and the event (whose outbox trigger runs as for
// the service); the buyer's expiry and tier expiry; the receipt, numbered in its series (the series row
// taken in the same statement); the seller's notice and the buyer's receipt message queued. The order is
// locked and checked inside the statement (nothing is written when it is not the caller's or not payable).
// It has none of the service's plugins, schemas or error shapes, and handles only what the bench sends:
// fresh USER orders of the default tier, by distinct buyers, under settings without a GSTIN (receipts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { financialYearOf, numberHead } from '../../src/core/invoices/numbering';
import { RECEIPT_PREFIX } from '../../src/core/invoices/issue';
import { paymentSignature, signaturesMatch } from '../../src/core/processor/signatures';
import { verifySession } from '../../src/core/session';

export const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

/** The spec's verify-payment body, as the bench sends it. */
export interface VerifyBody {
  providerId: string;
  processor_order_id: string;
  processor_payment_id: string;
  processor_signature: string;
}

interface Paid {
  found: boolean;
  mine: boolean;
  category: string;
  guild_id: string | null;
  plan_type: string;
  expires_at: Date | null;
}

const IDEMPOTENCY_LOCK = "SELECT pg_advisory_xact_lock(1, hashtext('order:' || $1))";

const TIMESTAMP = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * $1 the order, $2 the caller's provider id, $3 the payment, $4 the event id, $5 the number head, $6 the
 * financial year. Answers one row when the order exists; `expires_at` null when it wrote nothing.
 */
const PAY_AND_GRANT = `
  WITH o AS (
    SELECT o.id, o.processor_order_id, o.category, o.guild_id, o.plan_type, o.duration_days, o.amount_paise,
           o.currency, o.billing_name, o.billing_state_code, o.billing_gstin, o.status, o.payment_id,
           o.dispute_status, o.refunded_payment_ids, u.id AS buyer_id, u.provider_id, u.username
    FROM orders o JOIN users u ON u.id = o.buyer_user_id
    WHERE o.processor_order_id = $1 FOR UPDATE OF o),
  payable AS (
    SELECT * FROM o
    WHERE provider_id = $2 AND category = 'USER' AND status = 'created' AND payment_id IS NULL
      AND COALESCE(dispute_status, '') NOT IN ('open', 'lost') AND NOT ($3 = ANY (refunded_payment_ids))),
  tier AS (SELECT code, features FROM tiers WHERE code = 'premium'),
  paid AS (
    UPDATE orders SET status = 'paid', payment_id = $3, paid_at = now(), next_check_at = NULL, updated_at = now()
    WHERE id = (SELECT id FROM payable) RETURNING id),
  before AS (SELECT r.expires_at, r.version FROM user_premiums r, payable p WHERE r.user_id = p.buyer_id),
  after AS (
    INSERT INTO user_premiums AS r (user_id, expires_at, version, tier, tier_days_written)
    SELECT buyer_id, now() + make_interval(days => duration_days), 1, 'premium', 1 FROM payable
    ON CONFLICT (user_id) DO UPDATE
    SET expires_at = GREATEST(r.expires_at, now()) + (EXCLUDED.expires_at - now()), version = r.version + 1,
        tier = 'premium', updated_at = now(), tier_days_written = r.tier_days_written + 1
    RETURNING id, expires_at, version),
  days AS (
    INSERT INTO user_premium_days (record_id, tier, ends_at) SELECT id, 'premium', expires_at FROM after
    ON CONFLICT (record_id, tier) DO UPDATE SET ends_at = EXCLUDED.ends_at),
  raised AS (
    UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, after.expires_at), updated_at = now()
    FROM after, payable WHERE users.id = payable.buyer_id),
  raised_tier AS (
    INSERT INTO user_tier_expiries (user_id, tier, expires_at) SELECT buyer_id, 'premium', after.expires_at
    FROM payable, after
    ON CONFLICT (user_id, tier) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE user_tier_expiries.expires_at < EXCLUDED.expires_at),
  ledger AS (
    INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, plan_type, tier, days,
                                expires_before, expires_after, source, actor, reason, order_id, version)
    SELECT 'order:' || p.processor_order_id, $4::uuid, 'grant', 'USER', p.buyer_id, p.plan_type, 'premium',
           p.duration_days, (SELECT expires_at FROM before WHERE version > 0), after.expires_at, 'checkout',
           'user:' || p.provider_id, 'payment ' || $3, p.id, after.version
    FROM payable p, after),
  event AS (
    INSERT INTO outbox (event_id, type, aggregate_key, payload)
    SELECT $4::uuid, 'USER_PREMIUM_ADD', 'user:' || p.provider_id, jsonb_build_object(
      'type', 'USER_PREMIUM_ADD', 'providerId', p.provider_id, 'guildId', NULL, 'category', 'USER',
      'planType', p.plan_type, 'durationDays', p.duration_days, 'slots', 1,
      'expiresAt', to_char(after.expires_at AT TIME ZONE 'UTC', ${TIMESTAMP}),
      'version', after.version, 'tier', 'premium', 'features', tier.features,
      'orderId', p.processor_order_id, 'source', 'checkout', 'eventId', $4::text,
      'occurredAt', to_char(now() AT TIME ZONE 'UTC', ${TIMESTAMP}))
    FROM payable p, after, tier),
  messages AS (
    INSERT INTO jobs (kind, payload, run_at, dedupe_key)
    SELECT job.kind, job.payload, now(), job.dedupe_key FROM payable p, LATERAL (VALUES
      ('seller_notice', jsonb_build_object('kind', 'sale',
         'buyer', jsonb_build_object('providerId', p.provider_id, 'username', p.username),
         'purchase', jsonb_build_object('tier', 'premium', 'planType', p.plan_type, 'durationDays', p.duration_days,
           'category', 'USER', 'guildId', NULL, 'guildName', NULL),
         'amountPaise', p.amount_paise, 'orderId', p.processor_order_id, 'subscriptionId', NULL), NULL),
      ('buyer_message', jsonb_build_object('kind', 'receipt', 'to', p.provider_id, 'buyer', p.username,
         'plan', jsonb_build_object('tier', 'premium', 'planType', p.plan_type, 'durationDays', p.duration_days),
         'amountPaise', p.amount_paise, 'reference', p.processor_order_id), 'receipt:' || $3)
    ) AS job (kind, payload, dedupe_key)
    ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING),
  taken AS (
    INSERT INTO document_series AS s (kind, financial_year, last_serial) SELECT 'receipt', $6, 1 FROM payable
    ON CONFLICT (kind, financial_year) DO UPDATE SET last_serial = s.last_serial + 1
    RETURNING last_serial),
  receipt AS (
    INSERT INTO invoices (kind, number, financial_year, serial, issued_at, payment_id, order_id, user_id,
                          description, buyer_name, buyer_gstin, buyer_state_code, place_of_supply, rate_percent,
                          taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise, currency, period_from,
                          period_to)
    SELECT 'receipt', $5 || lpad(taken.last_serial::text, 6, '0'), $6, taken.last_serial, now(), $3, p.id,
           p.buyer_id, 'Premium, plan ' || p.plan_type || ': ' || p.duration_days || ' days for your account',
           COALESCE(p.billing_name, p.username), p.billing_gstin, p.billing_state_code,
           COALESCE(p.billing_state_code, left(p.billing_gstin, 2)), 0, p.amount_paise, 0, 0, 0, p.amount_paise,
           p.currency, (now() AT TIME ZONE 'Asia/Kolkata')::date,
           (now() AT TIME ZONE 'Asia/Kolkata')::date + p.duration_days - 1
    FROM payable p, taken)
  SELECT true AS found, o.provider_id = $2 AS mine, o.category, o.guild_id, o.plan_type,
         (SELECT expires_at FROM after) AS expires_at
  FROM o`;

const refuse = (code: number, error: string) => Object.assign(new Error(error), { statusCode: code });

async function payAndGrant(pool: pg.Pool, body: VerifyBody): Promise<Paid & { expires_at: Date }> {
  const client = await pool.connect();
  const financialYear = financialYearOf(new Date());
  try {
    const [, , answered] = await Promise.all([
      client.query('BEGIN'),
      client.query({ name: 'idempotency-lock', text: IDEMPOTENCY_LOCK, values: [body.processor_order_id] }),
      client.query<Paid>({
        name: 'pay-and-grant',
        text: PAY_AND_GRANT,
        values: [
          body.processor_order_id,
          body.providerId,
          body.processor_payment_id,
          randomUUID(),
          numberHead(RECEIPT_PREFIX, financialYear),
          financialYear,
        ],
      }),
      client.query('COMMIT'),
    ]);
    const paid = answered.rows[0];
    if (!paid) throw refuse(404, 'ORDER_NOT_FOUND');
    if (!paid.mine) throw refuse(403, 'NOT_YOUR_ORDER');
    if (!paid.expires_at) throw refuse(409, 'the floor pays fresh USER orders only');
    return { ...paid, expires_at: paid.expires_at };
  } catch (error) {
    if (!(error as { statusCode?: number }).statusCode) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export function bareVerifyRoute(app: FastifyInstance, pool: pg.Pool, secrets: { jwt: string; key: string }) {
  app.post<{ Body: VerifyBody }>('/api/payment/verify-payment', async (request) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw refuse(401, 'AUTHENTICATION_REQUIRED');
    const caller = verifySession(secrets.jwt, token).claims;
    const body = request.body;
    if (caller.providerId !== body.providerId) throw refuse(403, 'NOT_YOURSELF');
    const expected = paymentSignature(body.processor_order_id, body.processor_payment_id, secrets.key);
    if (!signaturesMatch(expected, body.processor_signature)) throw refuse(400, 'SIGNATURE_MISMATCH');
    const paid = await payAndGrant(pool, body);
    const expires = paid.expires_at.toISOString();
    return {
      success: true,
      message: `Payment verified: premium for your account is active until ${expires}`,
      orderId: body.processor_order_id,
      category: paid.category,
      guildId: paid.guild_id,
      planType: paid.plan_type,
      expiresAt: expires,
    };
  });
}

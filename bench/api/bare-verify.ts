// The floor of verify-payment: the same token check, the same signature check and the same paid-and-grant
// transaction as plain SQL with pg (prepared statements, pipelined: two round trips), without the
// service's plugins, schemas, error shapes, or its SERVER and replay branches (the bench pays fresh USER
// orders only). What core's Sequelize path costs beyond this is what a rewrite can win back. It keeps the
// grant of before tiers (no tier rows: it bumps tier_days_written so that 027's trigger for writes
// without tiers stays out of it), so the ratio to it shows what tiers cost too.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
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

interface LockedOrder {
  id: number;
  processor_order_id: string;
  category: 'USER' | 'SERVER';
  guild_id: string | null;
  plan_type: string;
  duration_days: number;
  status: string;
  payment_id: string | null;
  dispute_status: string | null;
  refunded_payment_ids: string[];
  buyer_id: number;
  buyer_provider_id: string;
}

const LOCK_ORDER = `
  SELECT o.id, o.processor_order_id, o.category, o.guild_id, o.plan_type, o.duration_days, o.status,
         o.payment_id, o.dispute_status, o.refunded_payment_ids, u.id AS buyer_id, u.provider_id AS buyer_provider_id
  FROM orders o JOIN users u ON u.id = o.buyer_user_id
  WHERE o.processor_order_id = $1 FOR UPDATE OF o`;

const IDEMPOTENCY_LOCK = 'SELECT pg_advisory_xact_lock(1, hashtext($1))';

const RECORD_PLACEHOLDER = `
  INSERT INTO user_premiums (user_id, expires_at, version) VALUES ($1, now(), 0) ON CONFLICT (user_id) DO NOTHING`;

/** Marks the order paid, extends the record, raises the user's expiry, writes the ledger row and the event. */
const PAY_AND_GRANT = `
  WITH prior AS (SELECT 1 FROM premium_grants WHERE idempotency_key = $1),
  paid AS (
    UPDATE orders SET status = 'paid', payment_id = $2, paid_at = now(), next_check_at = NULL, updated_at = now()
    WHERE id = $3 AND status = 'created' RETURNING id),
  before AS (SELECT expires_at, version FROM user_premiums WHERE user_id = $4),
  after AS (
    UPDATE user_premiums
    SET expires_at = GREATEST(expires_at, now()) + make_interval(days => $5), version = version + 1, updated_at = now(),
        tier_days_written = tier_days_written + 1
    WHERE user_id = $4 AND NOT EXISTS (SELECT 1 FROM prior) RETURNING expires_at, version),
  raised AS (
    UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, (SELECT expires_at FROM after)), updated_at = now()
    WHERE id = $4 AND EXISTS (SELECT 1 FROM after)),
  ledger AS (
    INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, plan_type, days,
                                expires_before, expires_after, source, actor, reason, order_id, version)
    SELECT $1, $6::uuid, 'grant', 'USER', $4, $7::text, $5, CASE WHEN before.version > 0 THEN before.expires_at END,
           after.expires_at, 'checkout', 'user:' || $8::text, 'payment ' || $2::text, $3, after.version
    FROM after, before),
  event AS (
    INSERT INTO outbox (event_id, type, aggregate_key, payload)
    SELECT $6::uuid, 'USER_PREMIUM_ADD', 'user:' || $8::text, jsonb_build_object(
      'type', 'USER_PREMIUM_ADD', 'providerId', $8::text, 'guildId', NULL, 'category', 'USER',
      'planType', $7::text, 'durationDays', $5::int, 'slots', 1,
      'expiresAt', to_char(after.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'version', after.version, 'orderId', $9::text, 'source', 'checkout', 'eventId', $6::text,
      'occurredAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM after)
  SELECT expires_at FROM after`;

const refuse = (code: number, error: string) => Object.assign(new Error(error), { statusCode: code });

async function payAndGrant(
  pool: pg.Pool,
  body: VerifyBody,
): Promise<{ order: LockedOrder; expiresAt: Date }> {
  const client = await pool.connect();
  try {
    const [, locked] = await Promise.all([
      client.query('BEGIN'),
      client.query<LockedOrder>({ name: 'lock-order', text: LOCK_ORDER, values: [body.processor_order_id] }),
    ]);
    const order = locked.rows[0];
    const refusal = !order
      ? refuse(404, 'ORDER_NOT_FOUND')
      : order.buyer_provider_id !== body.providerId
        ? refuse(403, 'NOT_YOUR_ORDER')
        : order.category !== 'USER'
          ? refuse(400, 'the floor grants USER premium only')
          : (order.payment_id !== null && order.payment_id !== body.processor_payment_id) ||
              order.status === 'refunded' ||
              order.refunded_payment_ids.includes(body.processor_payment_id) ||
              (order.status === 'created' && ['open', 'lost'].includes(order.dispute_status ?? ''))
            ? refuse(409, 'ORDER_NOT_PAYABLE')
            : null;
    if (refusal) {
      await client.query('ROLLBACK');
      throw refusal;
    }
    const key = `order:${order!.processor_order_id}`;
    const [, , granted] = await Promise.all([
      client.query({ name: 'idempotency-lock', text: IDEMPOTENCY_LOCK, values: [key] }),
      client.query({ name: 'record-placeholder', text: RECORD_PLACEHOLDER, values: [order!.buyer_id] }),
      client.query<{ expires_at: Date }>({
        name: 'pay-and-grant',
        text: PAY_AND_GRANT,
        values: [
          key,
          body.processor_payment_id,
          order!.id,
          order!.buyer_id,
          order!.duration_days,
          randomUUID(),
          order!.plan_type,
          order!.buyer_provider_id,
          order!.processor_order_id,
        ],
      }),
      client.query('COMMIT'),
    ]);
    const expiresAt = granted.rows[0]?.expires_at;
    if (!expiresAt) throw refuse(409, 'the floor does not replay a grant');
    return { order: order!, expiresAt };
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
    const { order, expiresAt } = await payAndGrant(pool, body);
    const expires = expiresAt.toISOString();
    return {
      success: true,
      message: `Payment verified: premium for your account is active until ${expires}`,
      orderId: order.processor_order_id,
      category: order.category,
      guildId: order.guild_id,
      planType: order.plan_type,
      expiresAt: expires,
    };
  });
}

import { paymentSignature } from '../../src/core/processor/signatures';
import { issueSessionToken } from '../../src/core/session';
import type { BenchEnvironment } from '../environment';

/** One verify-payment request: its buyer's session token and a body carrying a valid Checkout signature. */
export interface Verification {
  token: string;
  body: string;
}

export interface ApiFixtures {
  /** Users the status route is asked about, half of them premium. */
  providerIds: string[];
  /** Each for a distinct unpaid order of a distinct user. */
  verifications: Verification[];
}

const FIRST_PROVIDER_ID = 600_000_000_000_000_000n;
const pad = (i: number) => String(i).padStart(9, '0');

/** `users` users, and one unpaid Monthly order for each of the first `orders` of them. */
export async function createApiFixtures(
  env: BenchEnvironment,
  { users, orders }: { users: number; orders: number },
  secrets: { jwtSecret: string; keySecret: string },
): Promise<ApiFixtures> {
  if (orders > users) throw new Error('each order needs a buyer of its own');
  const providerIds = Array.from({ length: users }, (_, i) => String(FIRST_PROVIDER_ID + BigInt(i)));
  const buyers = providerIds.slice(0, orders);
  const orderIds = buyers.map((_, i) => `order_bench${pad(i)}`);
  await env.pool.query(
    `INSERT INTO users (provider_id, username, premium_expires_at)
     SELECT provider_id, 'bench-' || provider_id, CASE WHEN n % 2 = 0 THEN now() + interval '30 days' END
     FROM unnest($1::text[]) WITH ORDINALITY AS u(provider_id, n)`,
    [providerIds],
  );
  // As migration 027 leaves them: each premium user's days are the default tier's.
  await env.pool.query(
    `INSERT INTO user_tier_expiries (user_id, tier, expires_at)
     SELECT id, 'premium', premium_expires_at FROM users WHERE premium_expires_at IS NOT NULL`,
  );
  await env.pool.query(
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days, amount_paise)
     SELECT o.order_id, 'rcpt_' || o.order_id, users.id, 'USER', 'Monthly', 30, 19900
     FROM unnest($1::text[], $2::text[]) AS o(order_id, provider_id) JOIN users USING (provider_id)`,
    [orderIds, buyers],
  );
  await env.pool.query('VACUUM ANALYZE users, user_tier_expiries, orders');

  const verifications = buyers.map((providerId, i) => {
    const orderId = orderIds[i]!;
    const paymentId = `pay_bench${pad(i)}`;
    return {
      token: issueSessionToken(secrets.jwtSecret, {
        providerId,
        username: `bench-${providerId}`,
        avatar: null,
      }),
      body: JSON.stringify({
        providerId,
        processor_order_id: orderId,
        processor_payment_id: paymentId,
        processor_signature: paymentSignature(orderId, paymentId, secrets.keySecret),
      }),
    };
  });
  return { providerIds, verifications };
}

export async function paidOrders(env: BenchEnvironment): Promise<number> {
  const { rows } = await env.pool.query<{ paid: number }>(
    `SELECT count(*)::int AS paid FROM orders WHERE status = 'paid'`,
  );
  return rows[0]?.paid ?? 0;
}

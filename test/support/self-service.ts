import type { LightMyRequestResponse } from 'fastify';
import { QueryTypes } from 'sequelize';
import type { User } from '../../src/core/models';
import type { TestApp } from './app';
import { bearer, orderAs, verifyAs, verifyBody, type PaymentsTestApp } from './payments-app';

export function get(app: TestApp, url: string, user: User): Promise<LightMyRequestResponse> {
  return app.app.inject({ method: 'GET', url, headers: { authorization: bearer(app, user) } });
}

/** Buys Monthly SERVER premium for `guildId` as `user` through the API, the sandbox and verify-payment. */
export function buyMonthFor(
  app: PaymentsTestApp,
  user: User,
  guildId: string,
): Promise<{ orderId: string; paymentId: string }> {
  return buyFor(app, user, guildId, 'Monthly');
}

/** Buys SERVER premium of `planType` for `guildId` as `user`, as buyMonthFor does. */
export async function buyFor(
  app: PaymentsTestApp,
  user: User,
  guildId: string,
  planType: 'Monthly' | 'Yearly',
): Promise<{ orderId: string; paymentId: string }> {
  const amount = planType === 'Monthly' ? 199 : 1999;
  const order = await orderAs(app, user, { amount, planType, category: 'SERVER', guildId });
  const checkout = await app.sandbox.razorpay.pay(order.id);
  expect((await verifyAs(app, user, verifyBody(user, checkout))).statusCode).toBe(200);
  return { orderId: order.id, paymentId: checkout.razorpay_payment_id };
}

/**
 * Everything a refusal must leave as it was: the ledger, the outbox, the premium records, the users'
 * expiries, orders, transfers and codes.
 */
export async function snapshot(app: TestApp): Promise<unknown> {
  const query = (sql: string) => app.core.sequelize.query(sql, { type: QueryTypes.SELECT });
  return {
    grants: await query('SELECT * FROM premium_grants ORDER BY id'),
    outbox: await query('SELECT event_id, payload FROM outbox ORDER BY id'),
    servers: await query('SELECT guild_id, expires_at, version FROM server_premiums ORDER BY guild_id'),
    userRecords: await query('SELECT user_id, expires_at, version FROM user_premiums ORDER BY user_id'),
    users: await query('SELECT id, premium_expires_at FROM users ORDER BY id'),
    orders: await query('SELECT processor_order_id, status, payment_id FROM orders ORDER BY id'),
    transfers: await query('SELECT * FROM premium_transfers ORDER BY id'),
    codes: await query('SELECT * FROM premium_codes ORDER BY id'),
  };
}

export function errorOf(reply: LightMyRequestResponse): { status: number; code: string } {
  return { status: reply.statusCode, code: reply.json().error?.code };
}

import { ServerPremium, UserPremium, type User } from '../../src/core/models';
import type { RazorpayOrder } from '../../src/core/processor/types';
import { bearer, post, verifyAs, verifyBody, type PaymentsTestApp } from './payments-app';

/** A gift of the seed's Monthly (₹199, 30 days) for an account. */
export const GIFT = { amount: 199, planType: 'Monthly', category: 'USER', gift: true } as const;

export const createOrder = (app: PaymentsTestApp, user: User, body: object) =>
  post(app, '/api/payment/create-order', { providerId: user.providerId, ...body }, bearer(app, user));

/** Redeems `code` for the user's account, or for a guild (SERVER). */
export const redeem = (
  app: PaymentsTestApp,
  user: User,
  code: string,
  target: { category: 'USER' } | { guildId: string },
) =>
  post(
    app,
    '/api/premium/redeem',
    { code, ...('guildId' in target ? { category: 'SERVER', guildId: target.guildId } : target) },
    bearer(app, user),
  );

/** A gift bought, paid and verified: its order and the code verify-payment answered. */
export async function boughtGift(app: PaymentsTestApp, buyer: User, body: object = GIFT) {
  const reply = await createOrder(app, buyer, body);
  expect(reply.statusCode).toBe(200);
  const order: RazorpayOrder = reply.json();
  const checkout = await app.sandbox.razorpay.pay(order.id);
  const verified = await verifyAs(app, buyer, verifyBody(buyer, checkout));
  expect(verified.statusCode).toBe(200);
  return { orderId: order.id, code: verified.json().giftCode as string, checkout };
}

const daysLeft = (ends: Date | undefined) =>
  Math.max(0, Math.round(((ends?.getTime() ?? 0) - Date.now()) / 86_400_000));

/** Whole days left of the user's own premium (0 when none). */
export const userDaysLeft = async (user: User) =>
  daysLeft((await UserPremium.findOne({ where: { userId: user.id } }))?.expiresAt);

/** Whole days left of the guild's premium (0 when none). */
export const guildDaysLeft = async (guildId: string) =>
  daysLeft((await ServerPremium.findOne({ where: { guildId } }))?.expiresAt);

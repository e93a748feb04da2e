import { addPlan, addTier } from '../../../src/core/catalog';
import { selectRows } from '../../../src/core/db/database';
import { OutboxEvent, type User } from '../../../src/core/models';
import type { RazorpayOrder } from '../../../src/core/processor/types';
import { createUser, DAY_MS } from '../../support/fixtures';
import { buyMonthFor } from '../../support/self-service';
import {
  bearer,
  deliver,
  deliverDispute,
  deliverRefund,
  manageGuild,
  orderAs,
  paidMonthlyOrder,
  paymentOf,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();
const db = () => app().core.sequelize;

/** Monthly (premium, ₹199 for 30 days) is the seed's; Pro and Ultra are above it. */
beforeEach(async () => {
  await addTier(db(), { code: 'pro', name: 'Pro', rank: 2, features: { music: true } });
  await addTier(db(), { code: 'ultra', name: 'Ultra', rank: 3, features: {} });
  await addPlan(db(), null, { code: 'ProMonthly', tier: 'pro', scope: 'ANY', days: 30, price: 299 });
  await addPlan(db(), null, { code: 'UltraMonthly', tier: 'ultra', scope: 'ANY', days: 30, price: 399 });
  await addPlan(db(), null, {
    code: 'Trio',
    tier: 'premium',
    scope: 'SERVER',
    days: 30,
    price: 499,
    slots: 3,
  });
});

const TO_PRO = { fromTier: 'premium', toPlan: 'ProMonthly' };

const quote = (user: User, body: object) =>
  post(app(), '/api/payment/quote', { providerId: user.providerId, ...body }, bearer(app(), user));

const createOrder = (user: User, body: object) =>
  post(app(), '/api/payment/create-order', { providerId: user.providerId, ...body }, bearer(app(), user));

/** Pays an order at the sandbox and verifies it; returns verify-payment's reply. */
async function payAndVerify(user: User, order: RazorpayOrder) {
  const checkout = await app().sandbox.razorpay.pay(order.id);
  return verifyAs(app(), user, verifyBody(user, checkout));
}

/** Each tier's end on a user's record or a guild's, highest rank first (the record's rows). */
async function tierEnds(target: { user: User } | { guildId: string }): Promise<Record<string, number>> {
  const rows = await selectRows<{ tier: string; ends: Date }>(
    db(),
    'user' in target
      ? `SELECT d.tier, d.ends_at AS ends FROM user_premium_days d JOIN user_premiums r ON r.id = d.record_id
         WHERE r.user_id = $1 AND d.ends_at > now()`
      : `SELECT d.tier, d.ends_at AS ends FROM server_premium_days d JOIN server_premiums r ON r.id = d.record_id
         WHERE r.guild_id = $1 AND d.ends_at > now()`,
    ['user' in target ? target.user.id : target.guildId],
  );
  return Object.fromEntries(rows.map((row) => [row.tier, new Date(row.ends).getTime()]));
}

/** Days of each tier the ledger says the buyer holds (grants less revokes), whole. */
async function ledgerDays(user: User): Promise<Record<string, number>> {
  const rows = await selectRows<{ tier: string; days: string }>(
    db(),
    'SELECT tier, sum(days) AS days FROM premium_grants WHERE user_id = $1 GROUP BY tier',
    [user.id],
  );
  return Object.fromEntries(
    rows.filter((row) => Number(row.days) !== 0).map((row) => [row.tier, Number(row.days)]),
  );
}

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const DAILY_PAISE: Record<string, number> = { premium: 19900 / 30, pro: 29900 / 30, ultra: 39900 / 30 };

/** What the days the ledger holds are worth at the tiers' daily prices, in paise. */
const valueOf = (days: Record<string, number>) =>
  Math.round(Object.entries(days).reduce((sum, [tier, count]) => sum + count * DAILY_PAISE[tier]!, 0));

async function paidPaise(user: User): Promise<number> {
  const [row] = await selectRows<{ paid: string }>(
    db(),
    "SELECT COALESCE(sum(amount_paise), 0) AS paid FROM orders WHERE buyer_user_id = $1 AND status = 'paid'",
    [user.id],
  );
  return Number(row!.paid);
}

const near = (actual: number | undefined, expected: number) => Math.abs((actual ?? 0) - expected) < 120_000;

const transfer = (buyer: User, fromGuildId: string, toGuildId: string) =>
  app().app.inject({
    method: 'POST',
    url: '/api/premium/transfer',
    headers: { authorization: bearer(app(), buyer) },
    payload: { fromGuildId, toGuildId },
  });

/** A user with a paid Monthly of their own, and the upgrade of its 30 days to Pro ordered and paid. */
async function upgradedUser(): Promise<{
  user: User;
  monthly: string;
  monthlyEnds: number;
  upgrade: RazorpayOrder;
}> {
  const user = await createUser();
  const monthly = (await paidMonthlyOrder(app(), user)).orderId;
  const monthlyEnds = (await tierEnds({ user })).premium!;
  const upgrade = await orderAs(app(), user, { amount: 100, category: 'USER', upgrade: TO_PRO });
  expect((await payAndVerify(user, upgrade)).statusCode).toBe(200);
  return { user, monthly, monthlyEnds, upgrade };
}

describe('the upgrade of days held', () => {
  it('quotes the difference of daily prices for the days left, and paying converts them with one UPDATE', async () => {
    const user = await createUser();
    await paidMonthlyOrder(app(), user);
    const monthlyEnds = (await tierEnds({ user })).premium!;

    const quoted = await quote(user, { category: 'USER', upgrade: TO_PRO });
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json()).toMatchObject({
      plan: 'ProMonthly',
      tier: 'pro',
      days: 30,
      amount: 100,
      upgradeFrom: 'premium',
    });

    const before = await OutboxEvent.count();
    const order = await orderAs(app(), user, { amount: 100, category: 'USER', upgrade: TO_PRO });
    expect((await payAndVerify(user, order)).statusCode).toBe(200);

    // No day lost or gained: the same end, all of it Pro now, and the ledger's days worth what was paid.
    const ends = await tierEnds({ user });
    expect(Object.keys(ends)).toEqual(['pro']);
    expect(near(ends.pro, monthlyEnds)).toBe(true);
    expect(await ledgerDays(user)).toEqual({ pro: 30 });
    expect(valueOf(await ledgerDays(user))).toBe(await paidPaise(user));
    expect(await paidPaise(user)).toBe(19900 + 10000);

    const events = await OutboxEvent.findAll({ order: [['id', 'ASC']], offset: before });
    expect(events.map((event) => [event.type, event.payload.tier, event.payload.expiresAt])).toEqual([
      ['USER_PREMIUM_UPDATE', 'pro', expect.any(String)],
    ]);
    const [payment] = await selectRows<{ kind: string; invoices: string }>(
      db(),
      'SELECT p.kind, (SELECT count(*) FROM invoices i WHERE i.payment_id = p.payment_id) AS invoices FROM payments p WHERE p.payment_id = $1',
      [paymentOf(app(), order.id).id],
    );
    expect(payment).toEqual({ kind: 'upgrade', invoices: 1 });
  });

  it('converts once when the webhook tells of the payment, before and after verify-payment', async () => {
    const user = await createUser();
    await paidMonthlyOrder(app(), user);
    const monthlyEnds = (await tierEnds({ user })).premium!;
    const order = await orderAs(app(), user, { amount: 100, category: 'USER', upgrade: TO_PRO });
    const checkout = await app().sandbox.razorpay.pay(order.id);
    const payment = paymentOf(app(), order.id);
    expect(await deliver(app(), 'payment.captured', { payment })).toEqual(processed);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    expect(await deliver(app(), 'order.paid', { payment })).toEqual(processed);

    const ends = await tierEnds({ user });
    expect(Object.keys(ends)).toEqual(['pro']);
    expect(near(ends.pro, monthlyEnds)).toBe(true);
    expect(await ledgerDays(user)).toEqual({ pro: 30 });
  });

  it('converts exactly its days back on a refund, and a share of them on a partial refund', async () => {
    const { user, monthlyEnds, upgrade } = await upgradedUser();
    expect((await deliverRefund(app(), upgrade.id, 5000)).status).toBe(200);
    const halved = await tierEnds({ user });
    expect(near(halved.pro, Date.now() + 15 * DAY_MS)).toBe(true);
    expect(near(halved.premium, monthlyEnds)).toBe(true);
    expect(await ledgerDays(user)).toEqual({ pro: 15, premium: 15 });

    expect((await deliverRefund(app(), upgrade.id)).status).toBe(200);
    const back = await tierEnds({ user });
    expect(Object.keys(back)).toEqual(['premium']);
    expect(near(back.premium, monthlyEnds)).toBe(true);
    expect(await ledgerDays(user)).toEqual({ premium: 30 });
    const [last] = await OutboxEvent.findAll({ order: [['id', 'DESC']], limit: 1 });
    expect([last!.type, last!.payload.tier]).toEqual(['USER_PREMIUM_UPDATE', 'premium']);
  });

  it('converts its days back while a dispute holds the money, and up again when it is won', async () => {
    const { user, monthlyEnds, upgrade } = await upgradedUser();
    expect((await deliverDispute(app(), upgrade.id, 'created')).status).toBe(200);
    expect(Object.keys(await tierEnds({ user }))).toEqual(['premium']);
    expect(near((await tierEnds({ user })).premium, monthlyEnds)).toBe(true);

    expect((await deliverDispute(app(), upgrade.id, 'won')).status).toBe(200);
    const won = await tierEnds({ user });
    expect(Object.keys(won)).toEqual(['pro']);
    expect(near(won.pro, monthlyEnds)).toBe(true);
    expect(await ledgerDays(user)).toEqual({ pro: 30 });
  });

  it('keeps the lower days when a dispute is lost', async () => {
    const { user, monthlyEnds, upgrade } = await upgradedUser();
    expect((await deliverDispute(app(), upgrade.id, 'created')).status).toBe(200);
    expect((await deliverDispute(app(), upgrade.id, 'lost')).status).toBe(200);
    const lost = await tierEnds({ user });
    expect(Object.keys(lost)).toEqual(['premium']);
    expect(near(lost.premium, monthlyEnds)).toBe(true);
  });

  it('lets a refund of the lower purchase take its days wherever the upgrade put them', async () => {
    const upgraded = await upgradedUser();
    expect((await deliverRefund(app(), upgraded.monthly)).status).toBe(200);
    expect(await tierEnds({ user: upgraded.user })).toEqual({});

    const refundedFirst = await upgradedUser();
    expect((await deliverRefund(app(), refundedFirst.upgrade.id)).status).toBe(200);
    expect(Object.keys(await tierEnds({ user: refundedFirst.user }))).toEqual(['premium']);
    expect((await deliverRefund(app(), refundedFirst.monthly)).status).toBe(200);
    expect(await tierEnds({ user: refundedFirst.user })).toEqual({});
  });

  it('lets a refund of the lower purchase take its days after a partial refund of the upgrade', async () => {
    const { user, monthly, upgrade } = await upgradedUser();
    expect((await deliverRefund(app(), upgrade.id, 5000)).status).toBe(200);
    expect(await ledgerDays(user)).toEqual({ pro: 15, premium: 15 });
    expect((await deliverRefund(app(), monthly)).status).toBe(200);
    expect(await tierEnds({ user })).toEqual({});
  });

  it('lets a refund of the lower purchase take its days once they are upgraded again', async () => {
    const { user, monthly, upgrade } = await upgradedUser();
    expect((await deliverRefund(app(), upgrade.id)).status).toBe(200);
    const again = await orderAs(app(), user, { amount: 100, category: 'USER', upgrade: TO_PRO });
    expect((await payAndVerify(user, again)).statusCode).toBe(200);
    expect(await ledgerDays(user)).toEqual({ pro: 30 });
    expect((await deliverRefund(app(), monthly)).status).toBe(200);
    expect(await tierEnds({ user })).toEqual({});
  });

  it('upgrades the days a transfer moved, on the guild they are on now', async () => {
    const buyer = await createUser();
    const from = await manageGuild(buyer);
    const to = await manageGuild(buyer);
    await buyMonthFor(app(), buyer, from);
    const moved = await app().app.inject({
      method: 'POST',
      url: '/api/premium/transfer',
      headers: { authorization: bearer(app(), buyer) },
      payload: { fromGuildId: from, toGuildId: to },
    });
    expect(moved.statusCode).toBe(200);
    const upgrade = { category: 'SERVER', upgrade: TO_PRO };
    expect((await quote(buyer, { ...upgrade, guildId: from })).json()).toMatchObject({
      error: { code: 'NO_DAYS_TO_UPGRADE' },
    });
    const quoted = (await quote(buyer, { ...upgrade, guildId: to })).json();
    expect(quoted).toMatchObject({ days: 30, amount: 100 });

    const order = await orderAs(app(), buyer, { ...upgrade, guildId: to, amount: quoted.amount });
    expect((await payAndVerify(buyer, order)).statusCode).toBe(200);
    expect(Object.keys(await tierEnds({ guildId: to }))).toEqual(['pro']);
    expect((await deliverRefund(app(), order.id)).status).toBe(200);
    expect(Object.keys(await tierEnds({ guildId: to }))).toEqual(['premium']);
  });

  it('follows a transfer made before and after its payment: refused, or taken back where the days went', async () => {
    const buyer = await createUser();
    const [a, b] = [await manageGuild(buyer), await manageGuild(buyer)];
    await buyMonthFor(app(), buyer, a);
    const before = await orderAs(app(), buyer, {
      category: 'SERVER',
      guildId: a,
      amount: 100,
      upgrade: TO_PRO,
    });
    expect((await transfer(buyer, a, b)).statusCode).toBe(200);
    const refused = await payAndVerify(buyer, before);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'UPGRADE_DAYS_CHANGED']);
    expect(Object.keys(await tierEnds({ guildId: b }))).toEqual(['premium']);

    const other = await createUser();
    const [c, d] = [await manageGuild(other), await manageGuild(other)];
    const lower = (await buyMonthFor(app(), other, c)).orderId;
    const upgrade = await orderAs(app(), other, {
      category: 'SERVER',
      guildId: c,
      amount: 100,
      upgrade: TO_PRO,
    });
    expect((await payAndVerify(other, upgrade)).statusCode).toBe(200);
    const proEnds = (await tierEnds({ guildId: c })).pro!;
    expect((await transfer(other, c, d)).statusCode).toBe(200);
    expect((await deliverDispute(app(), upgrade.id, 'lost')).status).toBe(200);
    const lost = await tierEnds({ guildId: d });
    expect(Object.keys(lost)).toEqual(['premium']);
    expect(Math.abs(lost.premium! - proEnds)).toBeLessThan(DAY_MS);
    expect((await deliverRefund(app(), lower)).status).toBe(200);
    expect(await tierEnds({ guildId: d })).toEqual({});
  });

  it('lets one of two upgrades racing for the same days convert them; the other is 409 and refunded', async () => {
    const user = await createUser();
    await paidMonthlyOrder(app(), user);
    const monthlyEnds = (await tierEnds({ user })).premium!;
    const pro = await orderAs(app(), user, { amount: 100, category: 'USER', upgrade: TO_PRO });
    const ultra = await orderAs(app(), user, {
      amount: 200,
      category: 'USER',
      upgrade: { fromTier: 'premium', toPlan: 'UltraMonthly' },
    });
    const [proCheckout, ultraCheckout] = await Promise.all([
      app().sandbox.razorpay.pay(pro.id),
      app().sandbox.razorpay.pay(ultra.id),
    ]);
    const replies = await Promise.all([
      verifyAs(app(), user, verifyBody(user, proCheckout)),
      verifyAs(app(), user, verifyBody(user, ultraCheckout)),
    ]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
    const refused = replies.find((reply) => reply.statusCode === 409)!;
    expect(refused.json().error.code).toBe('UPGRADE_DAYS_CHANGED');
    const loser = refused === replies[0] ? pro : ultra;
    expect(app().sandbox.razorpay.refunds(paymentOf(app(), loser.id).id)).toHaveLength(1);

    const ends = await tierEnds({ user });
    expect(Object.keys(ends)).toHaveLength(1);
    expect(near(Object.values(ends)[0], monthlyEnds)).toBe(true);
    expect(Object.values(await ledgerDays(user))).toEqual([30]);
  });

  it('refuses what is no upgrade, clearly, and writes nothing', async () => {
    const user = await createUser();
    const stranger = await createUser();
    await paidMonthlyOrder(app(), user);
    const guildOfAnother = await manageGuild(stranger);
    const refusals: [object, number, string][] = [
      [{ category: 'USER', upgrade: { fromTier: 'premium', toPlan: 'Monthly' } }, 400, 'NOT_AN_UPGRADE'],
      [{ category: 'USER', upgrade: { fromTier: 'pro', toPlan: 'UltraMonthly' } }, 409, 'NO_DAYS_TO_UPGRADE'],
      [{ category: 'USER', upgrade: { fromTier: 'gold', toPlan: 'ProMonthly' } }, 400, 'UNKNOWN_TIER'],
      [{ category: 'USER', upgrade: { fromTier: 'premium', toPlan: 'Nope' } }, 400, 'UNKNOWN_PLAN'],
      [{ category: 'SERVER', guildId: guildOfAnother, upgrade: TO_PRO }, 403, 'NOT_GUILD_MANAGER'],
      [{ category: 'USER', upgrade: TO_PRO, offerCode: 'SAVE10' }, 400, 'OFFER_NOT_FOR_UPGRADES'],
    ];
    for (const [body, status, code] of refusals) {
      const quoted = await quote(user, body);
      expect([quoted.statusCode, quoted.json().error.code]).toEqual([status, code]);
      const ordered = await createOrder(user, { ...body, amount: 100 });
      expect([ordered.statusCode, ordered.json().error.code]).toEqual([status, code]);
    }
    expect(await ledgerDays(user)).toEqual({ premium: 30 });
    // The amount must be the quote's.
    const wrong = await createOrder(user, { category: 'USER', upgrade: TO_PRO, amount: 99 });
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'AMOUNT_MISMATCH']);
  });

  it("refuses a bundle's days: they stay with its binding", async () => {
    const buyer = await createUser();
    const guildId = await manageGuild(buyer);
    const trio = await orderAs(app(), buyer, { plan: 'Trio', amount: 499, category: 'SERVER', guildId });
    expect((await payAndVerify(buyer, trio)).statusCode).toBe(200);
    const quoted = await quote(buyer, { category: 'SERVER', guildId, upgrade: TO_PRO });
    expect([quoted.statusCode, quoted.json().error.code]).toEqual([409, 'BUNDLE_DAYS']);
    expect(Object.keys(await tierEnds({ guildId }))).toEqual(['premium']);
  });
});

describe('the lower purchase after a partial refund of the upgrade', () => {
  /** A user whose upgrade of their Monthly was refunded half: 15 days of Pro left, 15 turned back. */
  async function halfRefunded() {
    const upgraded = await upgradedUser();
    expect((await deliverRefund(app(), upgraded.upgrade.id, 5000)).status).toBe(200);
    expect(await ledgerDays(upgraded.user)).toEqual({ pro: 15, premium: 15 });
    return upgraded;
  }

  it("takes the Monthly's days after the rest of the upgrade turned them all back", async () => {
    const { user, monthly, monthlyEnds, upgrade } = await halfRefunded();
    expect((await deliverRefund(app(), upgrade.id)).status).toBe(200);
    expect(await ledgerDays(user)).toEqual({ premium: 30 });
    expect(near((await tierEnds({ user })).premium, monthlyEnds)).toBe(true);
    expect((await deliverRefund(app(), monthly)).status).toBe(200);
    expect(await tierEnds({ user })).toEqual({});
    expect(await ledgerDays(user)).toEqual({});
  });

  it('leaves the rest of the upgrade nothing to turn back once the refund of the Monthly took it', async () => {
    const { user, monthly, upgrade } = await halfRefunded();
    expect((await deliverRefund(app(), monthly)).status).toBe(200);
    expect(await ledgerDays(user)).toEqual({});
    expect((await deliverRefund(app(), upgrade.id)).status).toBe(200);
    expect(await tierEnds({ user })).toEqual({});
    expect(await ledgerDays(user)).toEqual({});
  });

  it('takes a partial refund of the Monthly from the days turned back first, at their price', async () => {
    const { user, monthly, upgrade } = await halfRefunded();
    expect((await deliverRefund(app(), monthly, 9950)).status).toBe(200);
    // Half the Monthly's money back takes its 15 days of Premium; the 15 of Pro are worth what stays paid.
    expect(await ledgerDays(user)).toEqual({ pro: 15 });
    expect(valueOf(await ledgerDays(user))).toBe(19900 + 10000 - 5000 - 9950);
    expect((await deliverRefund(app(), upgrade.id)).status).toBe(200);
    expect(await ledgerDays(user)).toEqual({ premium: 15 });
    expect((await deliverRefund(app(), monthly)).status).toBe(200);
    expect(await tierEnds({ user })).toEqual({});
  });

  it('takes both halves on a dispute of the Monthly: kept when lost, each given back when won', async () => {
    const lost = await halfRefunded();
    const lostDispute = { disputeId: 'disp_MonthlyLost01' };
    expect((await deliverDispute(app(), lost.monthly, 'created', lostDispute)).status).toBe(200);
    expect(await tierEnds({ user: lost.user })).toEqual({});
    expect((await deliverDispute(app(), lost.monthly, 'lost', lostDispute)).status).toBe(200);
    expect(await tierEnds({ user: lost.user })).toEqual({});

    const won = await halfRefunded();
    const dispute = { disputeId: 'disp_MonthlyWon001' };
    expect((await deliverDispute(app(), won.monthly, 'created', dispute)).status).toBe(200);
    expect(await tierEnds({ user: won.user })).toEqual({});
    expect((await deliverDispute(app(), won.monthly, 'won', dispute)).status).toBe(200);
    expect(await ledgerDays(won.user)).toEqual({ pro: 15, premium: 15 });
    // The rest of the upgrade still turns exactly its days back, and the Monthly's refund takes them all.
    expect((await deliverRefund(app(), won.upgrade.id)).status).toBe(200);
    expect(await ledgerDays(won.user)).toEqual({ premium: 30 });
    expect((await deliverRefund(app(), won.monthly)).status).toBe(200);
    expect(await tierEnds({ user: won.user })).toEqual({});
  });

  it('takes both halves where a transfer moved them, before or after the partial refund', async () => {
    for (const transferFirst of [false, true]) {
      const buyer = await createUser();
      const [from, to] = [await manageGuild(buyer), await manageGuild(buyer)];
      const monthly = (await buyMonthFor(app(), buyer, from)).orderId;
      const upgrade = await orderAs(app(), buyer, {
        category: 'SERVER',
        guildId: from,
        amount: 100,
        upgrade: TO_PRO,
      });
      expect((await payAndVerify(buyer, upgrade)).statusCode).toBe(200);
      if (transferFirst) expect((await transfer(buyer, from, to)).statusCode).toBe(200);
      expect((await deliverRefund(app(), upgrade.id, 5000)).status).toBe(200);
      if (!transferFirst) expect((await transfer(buyer, from, to)).statusCode).toBe(200);
      expect(Object.keys(await tierEnds({ guildId: to })).sort()).toEqual(['premium', 'pro']);
      expect((await deliverRefund(app(), monthly)).status).toBe(200);
      expect(await tierEnds({ guildId: to })).toEqual({});
      expect(await tierEnds({ guildId: from })).toEqual({});
    }
  });
});

describe('an upgrade of days another purchase gave', () => {
  it('lets a refund of a redeemed gift take its days after the redeemer upgraded them', async () => {
    const giver = await createUser();
    const redeemer = await createUser();
    const gift = await orderAs(app(), giver, {
      amount: 199,
      planType: 'Monthly',
      category: 'USER',
      gift: true,
    });
    const checkout = await app().sandbox.razorpay.pay(gift.id);
    const { giftCode } = (await verifyAs(app(), giver, verifyBody(giver, checkout))).json();
    const redeemed = await post(
      app(),
      '/api/premium/redeem',
      { code: giftCode, category: 'USER' },
      bearer(app(), redeemer),
    );
    expect(redeemed.statusCode).toBe(200);
    const upgrade = await orderAs(app(), redeemer, { amount: 100, category: 'USER', upgrade: TO_PRO });
    expect((await payAndVerify(redeemer, upgrade)).statusCode).toBe(200);
    expect(Object.keys(await tierEnds({ user: redeemer }))).toEqual(['pro']);

    expect((await deliverRefund(app(), gift.id)).status).toBe(200);
    expect(await tierEnds({ user: redeemer })).toEqual({});
  });
});

import { addPlan, addTier } from '../../../src/core/catalog';
import { revokeCodes } from '../../../src/core/codes/revoke-codes';
import { lockStatement } from '../../../src/core/db/advisory-locks';
import { selectRows } from '../../../src/core/db/database';
import type { User } from '../../../src/core/models';
import { addOffer, showOffer } from '../../../src/core/offers';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { revokePremium } from '../../../src/core/premium/revoke';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import { createUser } from '../../support/fixtures';
import {
  boughtGift as buyGift,
  createOrder as createGiftOrder,
  GIFT,
  guildDaysLeft,
  redeem as redeemCode,
  userDaysLeft,
} from '../../support/gifts';
import {
  bearer,
  deliver,
  deliverDispute,
  deliverRefund,
  manageGuild,
  paidMonthlyOrder,
  paymentOf,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { untilWaitingOn } from '../../support/transactions';

/**
 * Gift codes where they meet the other money features (docs/codes.md, "Money at the seams"): offers,
 * scopes, upgrades, transfers, disputes with refunds, operators' revokes, and payments applied at once.
 */
const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();
const db = () => app().core.sequelize;

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const createOrder = (user: User, body: object) => createGiftOrder(app(), user, body);
const redeem = (user: User, code: string, target: { category: 'USER' } | { guildId: string }) =>
  redeemCode(app(), user, code, target);
const boughtGift = (buyer: User, body?: object) => buyGift(app(), buyer, body);

/** The code a gift's order made, by its id; and its redemption's grant. */
async function codeOf(orderId: string) {
  const [code] = await selectRows<{ codeId: number; grantId: number | null }>(
    db(),
    'SELECT id::int AS "codeId", grant_id::int AS "grantId" FROM premium_codes WHERE payment_id = $1',
    [paymentOf(app(), orderId).id],
  );
  return code!;
}

/** What the books hold of a gift's payment: its codes, its invoice's total and what credit notes credit. */
async function booksOf(orderId: string) {
  const [books] = await selectRows<{ codes: number; invoiced: number; credited: number }>(
    db(),
    `SELECT (SELECT count(*)::int FROM premium_codes WHERE payment_id = $1) AS codes,
            (SELECT total_paise FROM invoices WHERE payment_id = $1) AS invoiced,
            (SELECT coalesce(sum(n.total_paise), 0)::int FROM credit_notes n
               JOIN invoices i ON i.id = n.invoice_id WHERE i.payment_id = $1) AS credited`,
    [paymentOf(app(), orderId).id],
  );
  return books;
}

describe('a gift where it meets scopes and disputes', () => {
  it("is redeemed only where its plan is sold: a user's plan never for a server", async () => {
    await addPlan(db(), null, { code: 'Solo', tier: 'premium', scope: 'USER', days: 30, price: 49 });
    const [buyer, friend] = [await createUser(), await createUser()];
    const { code } = await boughtGift(buyer, { amount: 49, plan: 'Solo', category: 'USER', gift: true });
    const guildId = await manageGuild(friend);
    const refused = await redeem(friend, code, { guildId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'PLAN_SCOPE_MISMATCH' });
    expect(await guildDaysLeft(guildId)).toBe(0);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    expect(await userDaysLeft(friend)).toBe(30);
  });

  it("buys a gift of a server's plan, redeemed only for a guild its redeemer manages", async () => {
    await addPlan(db(), null, { code: 'Guild', tier: 'premium', scope: 'SERVER', days: 30, price: 299 });
    const [buyer, friend, owner] = [await createUser(), await createUser(), await createUser()];
    const { code } = await boughtGift(buyer, { amount: 299, plan: 'Guild', category: 'SERVER', gift: true });
    const guildId = await manageGuild(owner);
    expect((await redeem(friend, code, { guildId })).json().error).toMatchObject({
      code: 'NOT_GUILD_MANAGER',
    });
    expect((await redeem(owner, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'PLAN_SCOPE_MISMATCH',
    });
    expect((await redeem(owner, code, { guildId })).statusCode).toBe(200);
    expect(await guildDaysLeft(guildId)).toBe(30);
  });

  it('keeps an unredeemed code withdrawn when a dispute is won after a partial refund', async () => {
    const buyer = await createUser();
    const { orderId, code } = await boughtGift(buyer);
    expect(await deliverRefund(app(), orderId, 5000)).toEqual(processed);
    const disputeId = 'disp_GiftRefunded01';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    const friend = await createUser();
    expect((await redeem(friend, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
  });

  it('keeps an unredeemed code withdrawn when a partial refund comes while a dispute is open', async () => {
    const buyer = await createUser();
    const { orderId, code } = await boughtGift(buyer);
    const disputeId = 'disp_GiftRefunded02';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    // Nothing to take while the dispute holds the code: the win must not give it back whole.
    expect((await deliverRefund(app(), orderId, 5000)).status).toBe(200);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    const friend = await createUser();
    expect((await redeem(friend, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
  });

  it('frees an unredeemed code once both of two disputes are won, in either order', async () => {
    const buyer = await createUser();
    for (const lastWon of [2, 1]) {
      const { orderId, code } = await boughtGift(buyer);
      const disputes = [1, 2].map((n) => ({
        disputeId: `disp_GiftTwo${lastWon}Of${n}000`,
        amountPaise: 5_000,
      }));
      for (const dispute of disputes) {
        expect(await deliverDispute(app(), orderId, 'created', dispute)).toEqual(processed);
      }
      for (const dispute of lastWon === 2 ? disputes : [...disputes].reverse()) {
        expect(await deliverDispute(app(), orderId, 'won', dispute)).toEqual(processed);
      }
      expect((await redeem(await createUser(), code, { category: 'USER' })).statusCode).toBe(200);
    }
  });

  it("keeps an operator's withdrawal of a code when a dispute is won", async () => {
    const buyer = await createUser();
    const { orderId, code } = await boughtGift(buyer);
    const { codeId } = await codeOf(orderId);
    const revoked = await revokeCodes(db(), { codeIds: [codeId], actor: 'operator', reason: 'fraud' });
    expect(revoked.revoked).toEqual([codeId]);
    const disputeId = 'disp_GiftRevoked001';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    const friend = await createUser();
    expect((await redeem(friend, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
  });

  it("takes a partial refund's share of a redemption that committed while the refund waited", async () => {
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(buyer);
    const { codeId } = await codeOf(orderId);
    // The redemption's grant waits on its idempotency lock, holding the code's row, while the refund comes.
    const blocker = await db().transaction();
    const lock = lockStatement('idempotency', `code:${codeId}`);
    await db().query(lock.text, { bind: lock.values, transaction: blocker });
    const redeemed = redeem(friend, code, { category: 'USER' });
    await untilWaitingOn(db(), 'advisory');
    const refunded = deliverRefund(app(), orderId, 9950);
    await untilWaitingOn(db(), 'transactionid');
    await blocker.commit();

    expect((await redeemed).statusCode).toBe(200);
    expect(await refunded).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(15);
  });

  it("takes the redeemer's days back from where their upgrade converted them", async () => {
    await addTier(db(), { code: 'pro', name: 'Pro', rank: 2, features: {} });
    await addPlan(db(), null, { code: 'ProMonthly', tier: 'pro', scope: 'ANY', days: 30, price: 299 });
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(buyer);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    const upgrade = { fromTier: 'premium', toPlan: 'ProMonthly' };
    const upgraded = await createOrder(friend, { amount: 100, category: 'USER', upgrade });
    expect(upgraded.statusCode).toBe(200);
    const checkout = await app().sandbox.razorpay.pay(upgraded.json().id);
    expect((await verifyAs(app(), friend, verifyBody(friend, checkout))).statusCode).toBe(200);

    expect(await deliverRefund(app(), orderId, 9950)).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(15);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(0);
  });
});

describe('a gift where it meets offers, transfers, operators and itself', () => {
  it('counts a capped percent offer once and credits what was paid, applied three ways at once', async () => {
    await addOffer(db(), { code: 'HALFCAP', percentOff: 50, maxDiscount: 60, actor: 'test' });
    const buyer = await createUser();
    const orderId: string = (await createOrder(buyer, { ...GIFT, amount: 139, offerCode: 'HALFCAP' })).json()
      .id;
    const checkout = await app().sandbox.razorpay.pay(orderId);
    const since = new Date(Date.now() - 86_400_000);
    const [verified, hooked] = await Promise.all([
      verifyAs(app(), buyer, verifyBody(buyer, checkout)),
      deliver(app(), 'payment.captured', { payment: paymentOf(app(), orderId) }),
      reconcileOrders(app().core, razorpayClientFor(app().core.config), { since, orderId }),
    ]);
    expect([verified.statusCode, hooked.status]).toEqual([200, 200]);
    expect(await showOffer(db(), 'HALFCAP', 60)).toMatchObject({ redemptions: 1, paidRedemptions: 1 });
    expect(await booksOf(orderId)).toEqual({ codes: 1, invoiced: 13_900, credited: 0 });

    expect(await deliverRefund(app(), orderId, 3_900)).toEqual(processed);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await booksOf(orderId)).toEqual({ codes: 1, invoiced: 13_900, credited: 13_900 });
    expect((await redeem(buyer, verified.json().giftCode, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
  });

  it("takes a dispute's days from where a transfer moved them, gives them back there once", async () => {
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(buyer);
    const [from, to] = [await manageGuild(friend), await manageGuild(friend)];
    expect((await redeem(friend, code, { guildId: from })).statusCode).toBe(200);
    const moved = await post(
      app(),
      '/api/premium/transfer',
      { fromGuildId: from, toGuildId: to },
      bearer(app(), friend),
    );
    expect(moved.statusCode).toBe(200);
    const disputeId = 'disp_GiftMoved0001';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect([await guildDaysLeft(from), await guildDaysLeft(to)]).toEqual([0, 0]);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    expect((await deliverDispute(app(), orderId, 'won', { disputeId })).status).toBe(200);
    expect([await guildDaysLeft(from), await guildDaysLeft(to)]).toEqual([0, 30]);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect([await guildDaysLeft(from), await guildDaysLeft(to)]).toEqual([0, 0]);
  });

  it("takes nothing more once an operator revoked the redeemer's days, and credits the refunds", async () => {
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(buyer);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    const { codeId, grantId } = await codeOf(orderId);
    await revokePremium(db(), {
      target: { grantId: grantId! },
      source: 'manual',
      actor: 'operator',
      reason: 'abuse',
      idempotencyKey: 'operator-revoke-gift',
    });
    expect(await revokeCodes(db(), { codeIds: [codeId], actor: 'operator', reason: 'late' })).toEqual({
      revoked: [],
      skipped: [{ codeId, reason: 'already redeemed' }],
    });
    const disputeId = 'disp_GiftOperator1';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(0);
    expect(await deliverRefund(app(), orderId, 5_000)).toEqual(processed);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(0);
    expect(await booksOf(orderId)).toEqual({ codes: 1, invoiced: 19_900, credited: 19_900 });
  });

  it('takes back exactly its days from the buyer who redeemed it on top of their own', async () => {
    const buyer = await createUser();
    await paidMonthlyOrder(app(), buyer);
    expect(await userDaysLeft(buyer)).toBe(30);
    const { orderId, code } = await boughtGift(buyer);
    expect((await redeem(buyer, code, { category: 'USER' })).statusCode).toBe(200);
    expect(await userDaysLeft(buyer)).toBe(60);
    expect(await deliverRefund(app(), orderId, 9_950)).toEqual(processed);
    expect(await userDaysLeft(buyer)).toBe(45);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await userDaysLeft(buyer)).toBe(30);
  });
});

import { addPlan } from '../../../src/core/catalog';
import { selectRows } from '../../../src/core/db/database';
import { addOffer, showOffer } from '../../../src/core/offers';
import { UserPremium, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
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
import { get } from '../../support/self-service';
import {
  bearer,
  deliver,
  deliverDispute,
  deliverRefund,
  manageGuild,
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

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const createOrder = (user: User, body: object) => createGiftOrder(app(), user, body);
const redeem = (user: User, code: string, target: { category: 'USER' } | { guildId: string }) =>
  redeemCode(app(), user, code, target);
const boughtGift = (buyer: User, body?: object) => buyGift(app(), buyer, body);
const giftsOf = async (buyer: User) => (await get(app(), '/api/premium/gifts', buyer)).json().gifts;

describe('a gift code bought in the store', () => {
  it('makes one code for the payment, however often it is applied, and grants the buyer nothing', async () => {
    const buyer = await createUser();
    const { orderId, code, checkout } = await boughtGift(buyer);
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);

    const payment = paymentOf(app(), orderId);
    expect(await deliver(app(), 'payment.captured', { payment })).toEqual(processed);
    const again = await verifyAs(app(), buyer, verifyBody(buyer, checkout));
    expect(again.json()).toMatchObject({ giftCode: code, expiresAt: null });

    const rows = await selectRows<{ kind: string; codes: number; description: string }>(
      db(),
      `SELECT p.kind, (SELECT count(*)::int FROM premium_codes c WHERE c.payment_id = p.payment_id) AS codes,
              (SELECT i.description FROM invoices i WHERE i.payment_id = p.payment_id) AS description
       FROM payments p WHERE p.payment_id = $1`,
      [payment.id],
    );
    expect(rows).toEqual([
      { kind: 'gift', codes: 1, description: 'Gift code of Premium, plan Monthly: 30 days' },
    ]);
    expect(await UserPremium.findOne({ where: { userId: buyer.id } })).toBeNull();
    expect(await giftsOf(buyer)).toEqual([
      expect.objectContaining({
        code,
        orderId,
        planType: 'Monthly',
        days: 30,
        status: 'unused',
        redeemedBy: null,
      }),
    ]);
  });

  it('is made by the reconciler when neither verify-payment nor the webhook came, and reported applied', async () => {
    const buyer = await createUser();
    const orderId: string = (await createOrder(buyer, GIFT)).json().id;
    await app().sandbox.razorpay.pay(orderId);
    const since = new Date(Date.now() - 86_400_000);
    const report = await reconcileOrders(app().core, razorpayClientFor(app().core.config), {
      since,
      orderId,
    });
    expect(report).toMatchObject({ applied: [{ orderId }], failed: [] });
    expect(await giftsOf(buyer)).toEqual([expect.objectContaining({ orderId, status: 'unused' })]);
  });

  it('is redeemed by a friend, and the buyer sees by whom', async () => {
    const [buyer, friend] = [await createUser(), await createUser()];
    const { code } = await boughtGift(buyer);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    expect(await userDaysLeft(friend)).toBe(30);
    expect(await giftsOf(buyer)).toEqual([
      expect.objectContaining({ code, status: 'redeemed', redeemedBy: friend.username }),
    ]);
    expect(await giftsOf(friend)).toEqual([]);
  });

  it('refuses a bundle, an upgrade and a subscription as a gift, creating nothing', async () => {
    await addPlan(db(), null, {
      code: 'Trio',
      tier: 'premium',
      scope: 'SERVER',
      days: 30,
      price: 499,
      slots: 3,
    });
    const buyer = await createUser();
    const bundle = await createOrder(buyer, { amount: 499, plan: 'Trio', category: 'SERVER', gift: true });
    expect(bundle.json().error).toMatchObject({ code: 'GIFT_NOT_FOR_BUNDLES' });
    const upgrade = await createOrder(buyer, {
      ...GIFT,
      upgrade: { fromTier: 'premium', toPlan: 'Monthly' },
    });
    expect(upgrade.json().error).toMatchObject({ code: 'GIFT_NOT_FOR_UPGRADES' });
    const subscription = await post(
      app(),
      '/api/payment/create-subscription',
      { providerId: buyer.providerId, planType: 'Monthly', category: 'USER', gift: true },
      bearer(app(), buyer),
    );
    expect([bundle.statusCode, upgrade.statusCode, subscription.statusCode]).toEqual([400, 400, 400]);
    expect(subscription.json().error).toMatchObject({ code: 'GIFT_NOT_FOR_SUBSCRIPTIONS' });
    const [counted] = await selectRows<{ orders: number }>(
      db(),
      'SELECT count(*)::int AS orders FROM orders WHERE buyer_user_id = $1',
      [buyer.id],
    );
    expect(counted!.orders).toBe(0);
  });

  it('counts an offer once against its cap, however often its payment is applied', async () => {
    await addOffer(db(), { code: 'GIFT50', percentOff: 50, maxRedemptions: 1, actor: 'test' });
    const buyer = await createUser();
    const { orderId } = await boughtGift(buyer, { ...GIFT, amount: 99.5, offerCode: 'GIFT50' });
    expect(await deliver(app(), 'payment.captured', { payment: paymentOf(app(), orderId) })).toEqual(
      processed,
    );
    expect(await showOffer(db(), 'GIFT50', 60)).toMatchObject({ redemptions: 1, paidRedemptions: 1 });
    const other = await createUser();
    const refused = await createOrder(other, { ...GIFT, amount: 99.5, offerCode: 'GIFT50' });
    expect(refused.json().error).toMatchObject({ code: 'OFFER_INVALID' });
  });

  it('is redeemed once when two users redeem it at once', async () => {
    const buyer = await createUser();
    const { code } = await boughtGift(buyer);
    const [a, b] = [await createUser(), await createUser()];
    const replies = await Promise.all([
      redeem(a, code, { category: 'USER' }),
      redeem(b, code, { category: 'USER' }),
    ]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
    expect(replies.find((reply) => reply.statusCode === 409)!.json().error).toMatchObject({
      code: 'CODE_USED',
    });
    expect([await userDaysLeft(a), await userDaysLeft(b)].sort()).toEqual([0, 30]);
  });
});

describe('money at the seams of a gift', () => {
  it('withdraws an unredeemed code that is refunded', async () => {
    const buyer = await createUser();
    const { orderId, code } = await boughtGift(buyer);
    expect(await deliverRefund(app(), orderId, 5000)).toEqual(processed);
    const friend = await createUser();
    expect((await redeem(friend, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
    expect(await giftsOf(buyer)).toEqual([expect.objectContaining({ status: 'revoked' })]);
  });

  it("takes the redeemer's days back where a transfer moved them, a share for a partial refund", async () => {
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
    expect(await guildDaysLeft(to)).toBe(30);

    expect(await deliverRefund(app(), orderId, 9950)).toEqual(processed);
    expect(await guildDaysLeft(to)).toBe(15);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await guildDaysLeft(to)).toBe(0);
    expect(await guildDaysLeft(from)).toBe(0);
  });

  it("takes the redeemer's days while a dispute is open, and gives them back when it is won", async () => {
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(buyer);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    const disputeId = 'disp_GiftRedeemed01';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(0);
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    expect(await userDaysLeft(friend)).toBe(30);
  });

  it('holds an unredeemed code while a dispute is open, and frees it when the dispute is won', async () => {
    const buyer = await createUser();
    const { orderId, code } = await boughtGift(buyer);
    const friend = await createUser();
    const disputeId = 'disp_GiftUnused0001';
    expect(await deliverDispute(app(), orderId, 'created', { disputeId })).toEqual(processed);
    expect((await redeem(friend, code, { category: 'USER' })).json().error).toMatchObject({
      code: 'CODE_REVOKED',
    });
    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    expect((await redeem(friend, code, { category: 'USER' })).statusCode).toBe(200);
    expect(await userDaysLeft(friend)).toBe(30);
  });
});

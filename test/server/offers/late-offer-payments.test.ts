import { QueryTypes } from 'sequelize';
import { addOffer, showOffer, type NewOffer } from '../../../src/core/offers';
import { Order, OutboxEvent, PremiumGrant, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { recheckPaidOrders } from '../../../src/core/reconcile/refunds';
import { messageOf, type SellerNotice } from '../../../src/core/seller-notices';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  deliver,
  paymentOf,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

/** A hold of one minute: an order is made to outlive it by moving its creation back. */
const getApp = usePaymentsApp({ OFFER_HOLD_MINUTES: '1' });

const HOLD = 1;
/** What ₹199 Monthly costs with 90% off: ₹19.90. */
const DISCOUNTED = 19.9;

const offer = (overrides: Partial<NewOffer> = {}) =>
  addOffer(getApp().core.sequelize, { code: 'FLASH90', percentOff: 90, actor: 'test', ...overrides });

async function orderWithCode(user: User, code = 'FLASH90'): Promise<string> {
  const reply = await post(
    getApp(),
    '/api/payment/create-order',
    {
      providerId: user.providerId,
      planType: 'Monthly',
      category: 'USER',
      amount: DISCOUNTED,
      offerCode: code,
    },
    bearer(getApp(), user),
  );
  expect(reply.statusCode).toBe(200);
  return reply.json().id;
}

/**
 * The order (and its reservation) was made two hours ago: past its hold of one minute, and past the hour
 * that held it before OFFER_HOLD_MINUTES, so the same test shows what happened then.
 */
async function outliveHold(orderId: string): Promise<void> {
  for (const table of ['orders', 'offer_redemptions']) {
    await getApp().core.sequelize.query(
      `UPDATE ${table} SET created_at = created_at - interval '2 hours'
       WHERE receipt = (SELECT receipt FROM orders WHERE processor_order_id = $1)`,
      { bind: [orderId], type: QueryTypes.UPDATE },
    );
  }
}

async function payAndVerify(user: User, orderId: string) {
  const checkout = await getApp().sandbox.razorpay.pay(orderId);
  return verifyAs(getApp(), user, verifyBody(user, checkout));
}

/** What the books say of a refused order: refunded in full at Razorpay, never granted. */
async function refusedBooks(orderId: string) {
  const { sandbox } = getApp();
  const order = await Order.findOne({ where: { processorOrderId: orderId }, rejectOnEmpty: true });
  const refunds = sandbox.razorpay.refunds(order.paymentId!);
  return {
    status: order.status,
    refusedCode: order.refusedCode,
    refunded: refunds.map((refund) => [refund.amount, refund.status]),
    grants: await PremiumGrant.count({ where: { orderId: order.id } }),
  };
}

async function noticesOf(kind: string): Promise<Record<string, unknown>[]> {
  return getApp().core.sequelize.query<Record<string, unknown>>(
    "SELECT payload - 'kind' AS payload FROM jobs WHERE payload->>'kind' = $1 ORDER BY id",
    { bind: [kind], type: QueryTypes.SELECT },
  );
}

const figures = async () => {
  const { redemptions, paidRedemptions, maxRedemptions } = await showOffer(
    getApp().core.sequelize,
    'FLASH90',
    HOLD,
  );
  return { redemptions, paidRedemptions, maxRedemptions };
};

describe('a payment that comes after its offer hold lapsed', () => {
  it('is refunded in full and grants nothing when the cap was taken meanwhile (verify-payment)', async () => {
    await offer({ maxRedemptions: 1 });
    const [late, prompt] = await Promise.all([createUser(), createUser()]);
    const lateOrder = await orderWithCode(late);
    await outliveHold(lateOrder);
    // The lapsed hold gave its place back: another buyer takes it and pays.
    const promptOrder = await orderWithCode(prompt);
    expect((await payAndVerify(prompt, promptOrder)).statusCode).toBe(200);
    const events = await OutboxEvent.count();

    const checkout = await getApp().sandbox.razorpay.pay(lateOrder);
    const refused = await verifyAs(getApp(), late, verifyBody(late, checkout));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('OFFER_HOLD_EXPIRED');
    expect(refused.json().error.message).toMatch(/nothing was granted and ₹19\.90 is refunded in full/);
    expect(await refusedBooks(lateOrder)).toEqual({
      status: 'refunded',
      refusedCode: 'OFFER_HOLD_EXPIRED',
      refunded: [[1_990, 'processed']],
      grants: 0,
    });
    await late.reload();
    expect(late.premiumExpiresAt).toBeNull();
    expect(await OutboxEvent.count()).toBe(events);
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: 1 });
    // The seller hears of it.
    expect(await noticesOf('offer_refund')).toEqual([
      {
        payload: expect.objectContaining({
          orderId: lateOrder,
          offerCode: 'FLASH90',
          rule: 'cap',
          amountPaise: 1_990,
        }),
      },
    ]);

    const [{ payload }] = (await noticesOf('offer_refund')) as [{ payload: object }];
    expect(messageOf({ kind: 'offer_refund', ...payload } as SellerNotice).content).toBe(
      `Refunded in full: **${late.username}** (${late.providerId}) paid ₹19.90 for premium Monthly (30 days) ` +
        `for their account, order ${lateOrder}, after offer FLASH90's hold lapsed and its cap was reached ` +
        '(OFFER_HOLD_EXPIRED); nothing was granted',
    );

    // The same payment verified again: the same refusal, still one refund.
    const again = await verifyAs(getApp(), late, verifyBody(late, checkout));
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'OFFER_HOLD_EXPIRED']);
    expect((await refusedBooks(lateOrder)).refunded).toHaveLength(1);
  });

  it('is refunded when the buyer used the offer meanwhile (the payment.captured webhook)', async () => {
    await offer();
    const buyer = await createUser();
    const lapsed = await orderWithCode(buyer);
    await outliveHold(lapsed);
    const second = await orderWithCode(buyer);
    expect(second).not.toBe(lapsed);
    expect((await payAndVerify(buyer, second)).statusCode).toBe(200);
    const events = await OutboxEvent.count();

    await getApp().sandbox.razorpay.pay(lapsed);
    const delivered = await deliver(getApp(), 'payment.captured', { payment: paymentOf(getApp(), lapsed) });
    expect(delivered.status).toBe(200);
    expect(await refusedBooks(lapsed)).toEqual({
      status: 'refunded',
      refusedCode: 'OFFER_HOLD_EXPIRED',
      refunded: [[1_990, 'processed']],
      grants: 0,
    });
    expect(await OutboxEvent.count()).toBe(events);
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: null });
    expect((await noticesOf('offer_refund'))[0]!.payload).toMatchObject({ rule: 'once_per_buyer' });
  });

  it('is refunded when the buyer paid another order meanwhile and the offer is for a first purchase', async () => {
    await offer({ code: 'WELCOME90', firstPurchaseOnly: true });
    const buyer = await createUser();
    const lapsed = await orderWithCode(buyer, 'WELCOME90');
    await outliveHold(lapsed);
    const plain = await post(
      getApp(),
      '/api/payment/create-order',
      { providerId: buyer.providerId, planType: 'Monthly', category: 'USER', amount: 199 },
      bearer(getApp(), buyer),
    );
    expect((await payAndVerify(buyer, plain.json().id)).statusCode).toBe(200);

    const refused = await payAndVerify(buyer, lapsed);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'OFFER_HOLD_EXPIRED']);
    expect(await refusedBooks(lapsed)).toMatchObject({ status: 'refunded', grants: 0 });
    expect((await noticesOf('offer_refund'))[0]!.payload).toMatchObject({ rule: 'first_purchase' });
  });

  it("is refunded when the buyer's Check again finds it at Razorpay (the reconciler's path)", async () => {
    await offer({ maxRedemptions: 1 });
    const [late, prompt] = await Promise.all([createUser(), createUser()]);
    const lateOrder = await orderWithCode(late);
    await outliveHold(lateOrder);
    const promptOrder = await orderWithCode(prompt);
    expect((await payAndVerify(prompt, promptOrder)).statusCode).toBe(200);
    // Paid at Razorpay; Checkout's answer never came back.
    await getApp().sandbox.razorpay.pay(lateOrder);

    const recheck = await post(
      getApp(),
      `/api/payment/orders/${lateOrder}/recheck`,
      {},
      bearer(getApp(), late),
    );
    expect(recheck.statusCode).toBe(200);
    expect(recheck.json()).toMatchObject({ status: 'refunded', applied: false });
    expect(recheck.json().message).toMatch(/offer's hold ran out[\s\S]*refunded in full/);
    expect(await refusedBooks(lateOrder)).toEqual({
      status: 'refunded',
      refusedCode: 'OFFER_HOLD_EXPIRED',
      refunded: [[1_990, 'processed']],
      grants: 0,
    });
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: 1 });
  });

  it('is refunded by the refund check when Razorpay refused the refund at first', async () => {
    const { core, sandbox } = getApp();
    await offer({ maxRedemptions: 1 });
    const [late, prompt] = await Promise.all([createUser(), createUser()]);
    const lateOrder = await orderWithCode(late);
    await outliveHold(lateOrder);
    expect((await payAndVerify(prompt, await orderWithCode(prompt))).statusCode).toBe(200);
    sandbox.faults.set('razorpay.payments.refund', { status: 503 });

    const refused = await payAndVerify(late, lateOrder);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'OFFER_HOLD_EXPIRED']);
    expect(refused.json().error.message).toMatch(/nothing was granted and ₹19\.90 is being refunded in full/);
    expect(await refusedBooks(lateOrder)).toEqual({
      status: 'paid',
      refusedCode: 'OFFER_HOLD_EXPIRED',
      refunded: [],
      grants: 0,
    });

    sandbox.faults.clear();
    const report = await recheckPaidOrders(core, razorpayClientFor(core.config), {
      limit: 100,
      concurrency: 1,
    });
    expect(report.refunded.map((entry) => entry.orderId)).toEqual([lateOrder]);
    expect(await refusedBooks(lateOrder)).toEqual({
      status: 'refunded',
      refusedCode: 'OFFER_HOLD_EXPIRED',
      refunded: [[1_990, 'processed']],
      grants: 0,
    });
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: 1 });
  });

  it('is granted as any payment when no rule is broken', async () => {
    await offer({ maxRedemptions: 2, firstPurchaseOnly: true });
    const buyer = await createUser();
    const lapsed = await orderWithCode(buyer);
    await outliveHold(lapsed);
    expect(await figures()).toEqual({ redemptions: 0, paidRedemptions: 0, maxRedemptions: 2 });

    expect((await payAndVerify(buyer, lapsed)).statusCode).toBe(200);
    const order = await Order.findOne({ where: { processorOrderId: lapsed }, rejectOnEmpty: true });
    expect([order.status, order.refusedCode, order.amountPaise]).toEqual(['paid', null, 1_990]);
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: 2 });
    expect(await noticesOf('offer_refund')).toEqual([]);
  });

  it('lets one of two late payments racing for the last place win, and refunds the other', async () => {
    await offer({ maxRedemptions: 1 });
    const buyers = await Promise.all([createUser(), createUser()]);
    // One after the other, each once the hold before it lapsed; then both pay at once.
    const orders: string[] = [];
    for (const buyer of buyers) {
      orders.push(await orderWithCode(buyer));
      await outliveHold(orders.at(-1)!);
    }
    const replies = await Promise.all(buyers.map((buyer, at) => payAndVerify(buyer, orders[at]!)));

    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
    expect(await figures()).toEqual({ redemptions: 1, paidRedemptions: 1, maxRedemptions: 1 });
    const refusedAt = replies.findIndex((reply) => reply.statusCode === 409);
    expect(await refusedBooks(orders[refusedAt]!)).toMatchObject({ status: 'refunded', grants: 0 });
  });
});

import {
  Order,
  OutboxEvent,
  PremiumGrant,
  UserPremium,
  WebhookEvent,
  type User,
} from '../../../src/core/models';
import { webhookSignature } from '../../../src/core/processor/signatures';
import type { RazorpayOrder } from '../../../src/core/processor/types';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  deliver,
  MONTHLY_USER,
  orderAs,
  paidMonthlyOrder,
  paymentOf,
  refundAtProcessor,
  tenDaysFromNow,
  usePaymentsApp,
  userPremiumUntil,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

/** An order created through the API and paid at the sandbox, with no verification and no webhook yet. */
async function paidOrder(user: User): Promise<{ order: RazorpayOrder; paymentId: string }> {
  const order = await orderAs(app(), user, MONTHLY_USER);
  const checkout = await app().sandbox.razorpay.pay(order.id);
  return { order, paymentId: checkout.razorpay_payment_id };
}

/** What Razorpay sends when a payment succeeds: payment.captured, then order.paid. */
async function announcePayment(order: RazorpayOrder): Promise<{ status: number; body: string }[]> {
  const payment = paymentOf(app(), order.id);
  const paidOrder = app().sandbox.razorpay.order(order.id)!;
  return [
    await deliver(app(), 'payment.captured', { payment }),
    await deliver(app(), 'order.paid', { payment, order: paidOrder }),
  ];
}

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

async function expectNothingGranted(): Promise<void> {
  expect(await PremiumGrant.count()).toBe(0);
  expect(await OutboxEvent.count()).toBe(0);
}

describe('POST /api/payment/webhook: payments', () => {
  it('grants once for payment.captured followed by order.paid, as the webhook source', async () => {
    const user = await createUser();
    const { order, paymentId } = await paidOrder(user);
    expect(await announcePayment(order)).toEqual([processed, processed]);

    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'paid',
      paymentId,
    });
    const [grant, ...more] = await PremiumGrant.findAll();
    expect(more).toEqual([]);
    expect(grant).toMatchObject({ source: 'webhook', days: 30 });
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({ type: 'USER_PREMIUM_ADD', orderId: order.id, source: 'webhook' });
    expect(await WebhookEvent.count()).toBe(2);
  });

  it('grants once when verify-payment and the webhook race, and both succeed', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    const [verified, webhook] = await Promise.all([
      verifyAs(app(), user, verifyBody(user, checkout)),
      deliver(app(), 'payment.captured', { payment: paymentOf(app(), order.id) }),
    ]);

    expect(verified.statusCode).toBe(200);
    expect(webhook).toEqual(processed);
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect(verified.json().expiresAt).toBe((await UserPremium.findOne())!.expiresAt.toISOString());
  });

  it('acknowledges a replayed event id as a duplicate and changes nothing', async () => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const payment = paymentOf(app(), order.id);
    const first = await deliver(app(), 'payment.captured', { payment }, { eventId: 'evt_replayed_1' });
    const replays = await Promise.all([
      deliver(app(), 'payment.captured', { payment }, { eventId: 'evt_replayed_1' }),
      deliver(app(), 'payment.captured', { payment }, { eventId: 'evt_replayed_1' }),
    ]);

    expect(first).toEqual(processed);
    for (const replay of replays) expect(replay).toEqual({ status: 200, body: '{"status":"duplicate"}' });
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect(await WebhookEvent.count()).toBe(1);
  });

  it.each([
    ['amount', { amount: 100 }],
    ['currency', { currency: 'USD' }],
  ])('acknowledges a payment of the wrong %s but grants nothing', async (_label, change) => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const reply = await deliver(app(), 'payment.captured', {
      payment: { ...paymentOf(app(), order.id), ...change },
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      status: 'ignored',
      reason: expect.stringMatching(/^AMOUNT_MISMATCH/),
    });
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'created',
    });
    await expectNothingGranted();
    expect(await WebhookEvent.count()).toBe(1);
  });

  it('acknowledges a payment for an order it does not know, and unhandled events, changing nothing', async () => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const payment = paymentOf(app(), order.id);
    const replies = [
      await deliver(app(), 'payment.captured', { payment: { ...payment, order_id: 'order_OtherIntegr01' } }),
      await deliver(app(), 'payment.captured', { payment: { ...payment, order_id: null } }),
      await deliver(app(), 'payment.failed', { payment: { ...payment, order_id: 'order_OtherIntegr01' } }),
      await deliver(app(), 'virtual_account.credited', { payment }),
    ];

    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'ignored' });
    }
    expect(JSON.parse(replies[0]!.body).reason).toMatch(/^ORDER_NOT_FOUND/);
    // An authorised payment waits for its capture: noted, and nothing changes.
    expect(await deliver(app(), 'payment.authorized', { payment })).toEqual(processed);
    await expectNothingGranted();
  });

  it('refuses a wrong or missing signature with 400 and records nothing', async () => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const payment = paymentOf(app(), order.id);
    const body = JSON.stringify(app().sandbox.razorpay.buildWebhook('payment.captured', { payment }));
    const forged = await deliver(app(), 'payment.captured', { payment }, { signature: 'ab'.repeat(32) });
    const unsigned = await app().app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      headers: { 'content-type': 'application/json', 'x-razorpay-event-id': 'evt_unsigned_1' },
      payload: body,
    });
    // Signed with the key secret instead of the webhook secret.
    const wrongSecret = await app().app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-event-id': 'evt_wrong_secret_1',
        'x-razorpay-signature': webhookSignature(body, app().core.config.razorpay.keySecret),
      },
      payload: body,
    });

    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body).error.code).toBe('SIGNATURE_MISMATCH');
    expect(unsigned.statusCode).toBe(400);
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json().error.code).toBe('SIGNATURE_MISMATCH');
    await expectNothingGranted();
    expect(await WebhookEvent.count()).toBe(0);
  });

  it('checks the signature over the exact bytes: re-serialised JSON does not pass', async () => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const body = JSON.stringify(
      app().sandbox.razorpay.buildWebhook('payment.captured', { payment: paymentOf(app(), order.id) }),
    );
    const signature = webhookSignature(body, app().core.config.razorpay.webhookSecret);
    const send = (payload: string, eventId: string) =>
      app().app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-event-id': eventId,
          'x-razorpay-signature': signature,
        },
        payload,
      });

    expect((await send(JSON.stringify(JSON.parse(body), null, 2), 'evt_pretty_1')).statusCode).toBe(400);
    await expectNothingGranted();
    expect((await send(body, 'evt_exact_1')).statusCode).toBe(200);
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('answers 5xx when the database fails mid-way, keeps no trace of the event, and applies the retry', async () => {
    const user = await createUser();
    const { order } = await paidOrder(user);
    const payment = paymentOf(app(), order.id);
    const db = app().core.sequelize;
    // The ledger insert fails after the event id, the order and the premium record were written.
    await db.query(`
      CREATE FUNCTION fail_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$;
      CREATE TRIGGER fail_ledger BEFORE INSERT ON premium_grants FOR EACH ROW EXECUTE FUNCTION fail_ledger();
    `);
    try {
      const failed = await deliver(app(), 'payment.captured', { payment }, { eventId: 'evt_retried_1' });
      expect(failed.status).toBe(500);
      expect(JSON.parse(failed.body)).toEqual({
        error: { code: 'INTERNAL_ERROR', message: 'internal error' },
      });
    } finally {
      await db.query('DROP TRIGGER fail_ledger ON premium_grants; DROP FUNCTION fail_ledger();');
    }
    expect(await WebhookEvent.count()).toBe(0);
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'created',
    });
    expect(await UserPremium.count()).toBe(0);

    expect(await deliver(app(), 'payment.captured', { payment }, { eventId: 'evt_retried_1' })).toEqual(
      processed,
    );
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
  });
});

describe('POST /api/payment/webhook: refunds', () => {
  /** A user whose premium ran until `expiry` and who then bought and verified a Monthly USER order. */
  async function verifiedPurchase(expiry: Date) {
    const user = await userPremiumUntil(expiry);
    const { orderId, paymentId } = await paidMonthlyOrder(app(), user);
    return { user, order: { id: orderId }, paymentId };
  }

  it('revokes the grant on a full refund: order refunded, 30 days taken back, a REMOVE event', async () => {
    const expiry = tenDaysFromNow();
    const { user, order, paymentId } = await verifiedPurchase(expiry);
    const refund = await refundAtProcessor(app(), paymentId);
    const reply = await deliver(app(), 'refund.processed', { refund, payment: paymentOf(app(), order.id) });

    expect(reply).toEqual(processed);
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'refunded',
      paymentId,
      refundedAt: expect.any(Date),
    });
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt).toEqual(expiry);
    expect((await user.reload()).premiumExpiresAt).toEqual(expiry);
    expect(await PremiumGrant.findOne({ where: { kind: 'revoke' } })).toMatchObject({
      days: -30,
      source: 'webhook',
      reason: `refund ${refund.id}`,
    });
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({
      providerId: user.providerId,
      orderId: order.id,
      expiresAt: expiry.toISOString(),
      reason: `refund ${refund.id}`,
    });

    const replay = await deliver(app(), 'refund.processed', { refund, payment: paymentOf(app(), order.id) });
    expect(JSON.parse(replay.body)).toMatchObject({ status: 'ignored' });
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
  });

  it('takes the share of the days a partial refund is of the payment, and the rest once the refunds add up', async () => {
    const expiry = tenDaysFromNow();
    const { user, order, paymentId } = await verifiedPurchase(expiry);
    const premiumUntil = async () => (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt;
    const part = await refundAtProcessor(app(), paymentId, 5_000);
    const partial = await deliver(app(), 'refund.processed', {
      refund: part,
      payment: paymentOf(app(), order.id),
    });

    expect(partial).toEqual(processed);
    // 5,000 of 19,900 paise is 7.54 of the 30 days: 8 days go, 22 stay.
    expect(await premiumUntil()).toEqual(new Date(expiry.getTime() + 22 * DAY_MS));
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({ status: 'paid' });

    const rest = await refundAtProcessor(app(), paymentId);
    const full = await deliver(app(), 'refund.processed', {
      refund: rest,
      payment: paymentOf(app(), order.id),
    });
    expect(full).toEqual(processed);
    expect(await premiumUntil()).toEqual(expiry);
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'refunded',
    });
    expect(await OutboxEvent.count({ where: { type: 'USER_PREMIUM_REMOVE' } })).toBe(2);
  });

  it('never grants a payment whose full refund arrived before it was applied, and records both', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    const refund = await refundAtProcessor(app(), checkout.razorpay_payment_id);
    const refunded = paymentOf(app(), order.id);

    expect(await deliver(app(), 'refund.processed', { refund, payment: refunded })).toEqual(processed);
    const [late] = await announcePayment(order);
    expect(JSON.parse(late!.body)).toEqual({
      status: 'ignored',
      reason: expect.stringMatching(/^ORDER_REFUNDED/),
    });
    const verified = await verifyAs(app(), user, verifyBody(user, checkout));
    expect(verified.statusCode).toBe(409);
    expect(verified.json().error.code).toBe('ORDER_REFUNDED');
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'refunded',
      paymentId: checkout.razorpay_payment_id,
      paidAt: expect.any(Date),
      refundedAt: expect.any(Date),
    });
    await expectNothingGranted();

    // Another payment of the order (Razorpay takes none once one was captured) is money for an operator.
    const second = { ...refunded, id: 'pay_SecondAttempt01', amount_refunded: 0, refund_status: null };
    expect(JSON.parse((await deliver(app(), 'payment.captured', { payment: second })).body)).toEqual({
      status: 'ignored',
      reason: expect.stringMatching(/^ORDER_ALREADY_PAID/),
    });
    await expectNothingGranted();
  });
});

import { createUser } from '../../support/fixtures';
import {
  bearer,
  MONTHLY_USER,
  orderAs,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const getApp = usePaymentsApp();

async function ordersOf(user: Awaited<ReturnType<typeof createUser>>) {
  const app = getApp();
  const reply = await app.app.inject({
    method: 'GET',
    url: '/api/payment/orders',
    headers: { authorization: bearer(app, user) },
  });
  expect(reply.statusCode).toBe(200);
  return reply.json().orders as { orderId: string; status: string; failedAttempt: unknown }[];
}

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

describe('the payment events of a checkout, over signed webhooks', () => {
  beforeAll(() => getApp().sandbox.razorpay.setWebhookUrl(getApp().webhookUrl));

  it('shows a declined attempt as failed, with its reason, until a new attempt pays the order', async () => {
    const app = getApp();
    const user = await createUser();
    const order = await orderAs(app, user, MONTHLY_USER);

    const declined = await app.sandbox.razorpay.decline(order.id, { webhooks: true });
    expect(declined).toMatchObject({
      status: 'failed',
      base_amount: 19_900,
      upi: { vpa: expect.any(String) },
    });
    expect(app.sandbox.razorpay.webhookDeliveries().map(({ event, status }) => [event, status])).toEqual([
      ['payment.failed', 200],
    ]);
    const [failed] = await ordersOf(user);
    expect(failed).toEqual(
      expect.objectContaining({
        orderId: order.id,
        status: 'created',
        failedAttempt: {
          reason: 'The payment was declined in the sandbox checkout',
          at: new Date(declined.created_at * 1000).toISOString(),
        },
      }),
    );

    const recheck = await post(app, `/api/payment/orders/${order.id}/recheck`, {}, bearer(app, user));
    expect(recheck.json()).toMatchObject({ applied: false, failedAttempt: { reason: expect.any(String) } });
    expect(recheck.json().message).toMatch(
      /failed \(The payment was declined.*\)\. Nothing was charged: pay again\./,
    );

    // Paying again: authorised, captured, paid; the failure no longer shows.
    const checkout = await app.sandbox.razorpay.pay(order.id, { webhooks: true, method: 'card' });
    const events = app.sandbox.razorpay.webhookDeliveries().slice(1);
    expect(events.map(({ event, status, body }) => [event, { status, body }])).toEqual([
      ['payment.authorized', processed],
      ['payment.captured', processed],
      ['order.paid', processed],
    ]);
    expect((await verifyAs(app, user, verifyBody(user, checkout))).statusCode).toBe(200);
    const [paid] = await ordersOf(user);
    expect(paid).toMatchObject({ orderId: order.id, status: 'paid', failedAttempt: null });
  });

  it('acknowledges a failed payment of an order that is not ours, and one of a paid order', async () => {
    const app = getApp();
    const user = await createUser();
    const order = await orderAs(app, user, MONTHLY_USER);
    await app.sandbox.razorpay.pay(order.id, { webhooks: true });
    const payment = { ...app.sandbox.razorpay.payments(order.id)[0]!, status: 'failed' as const };

    const late = await app.sandbox.razorpay.deliverWebhook(
      'payment.failed',
      app.sandbox.razorpay.buildWebhook('payment.failed', { payment }),
    );
    expect(JSON.parse(late.body)).toEqual({ status: 'ignored', reason: `order ${order.id} is already paid` });
    const foreign = await app.sandbox.razorpay.deliverWebhook(
      'payment.failed',
      app.sandbox.razorpay.buildWebhook('payment.failed', {
        payment: { ...payment, order_id: 'order_Elsewhere0001' },
      }),
    );
    expect(foreign.status).toBe(200);
    expect(JSON.parse(foreign.body)).toMatchObject({
      status: 'ignored',
      reason: expect.stringMatching(/^ORDER_NOT_FOUND/),
    });
    expect((await ordersOf(user))[0]).toMatchObject({ status: 'paid', failedAttempt: null });
  });

  it('refunds asking for the optimum speed; refund.created is acknowledged and refund.processed applied', async () => {
    const app = getApp();
    const { razorpay } = app.sandbox;
    const user = await createUser();
    const order = await orderAs(app, user, MONTHLY_USER);
    const { razorpay_payment_id: paymentId } = await razorpay.pay(order.id, { webhooks: true });
    await razorpay.refund(paymentId, { webhooks: 'hold' });
    const held = razorpay.takeHeldWebhooks();
    expect(held.map(({ event, body }) => [event, body.payload.refund?.entity?.speed_requested])).toEqual([
      ['refund.created', 'optimum'],
      ['refund.processed', 'optimum'],
    ]);
    for (const { event, body } of held) {
      expect(await razorpay.deliverWebhook(event, body)).toEqual(processed);
    }
    expect((await ordersOf(user))[0]).toMatchObject({ status: 'refunded' });
  });
});

import { webhookSignature } from '../../src/core/processor/razorpay-client';
import { startSandbox, type RazorpayWebhook } from '../../src/sandbox';
import {
  basicAuth,
  createOrder,
  CREDENTIALS,
  startReceiver,
  useSandboxWithReceiver,
  type ReceivedRequest,
} from './support';

const { webhookSecret } = CREDENTIALS.razorpay;
const { sandbox, receiver } = useSandboxWithReceiver();
beforeEach(() => {
  receiver().received.length = 0;
});

const newOrder = () => createOrder(sandbox(), 199_900);

function event(request: ReceivedRequest): RazorpayWebhook {
  expect(request.headers['x-razorpay-signature']).toBe(webhookSignature(request.body, webhookSecret));
  return JSON.parse(request.body.toString('utf8')) as RazorpayWebhook;
}

it('pays with webhooks: payment.authorized, payment.captured then order.paid, signed, delivered before pay returns', async () => {
  const orderId = await newOrder();
  const checkout = await sandbox().razorpay.pay(orderId, { webhooks: true });

  expect(receiver().received).toHaveLength(3);
  const [authorized, captured, paid] = receiver().received.map(event);
  expect(authorized).toMatchObject({
    event: 'payment.authorized',
    payload: {
      payment: { entity: { id: checkout.razorpay_payment_id, status: 'authorized', captured: false } },
    },
  });
  expect(captured).toMatchObject({
    entity: 'event',
    account_id: expect.stringMatching(/^acc_[A-Za-z0-9]{14}$/),
    event: 'payment.captured',
    contains: ['payment'],
    payload: {
      payment: {
        entity: {
          id: checkout.razorpay_payment_id,
          order_id: orderId,
          status: 'captured',
          base_amount: 199_900,
          method: 'upi',
          upi: { payer_account_type: 'bank_account', vpa: 'success@razorpay', flow: 'collect' },
          card: null,
        },
      },
    },
    created_at: expect.any(Number),
  });
  expect(paid).toMatchObject({
    event: 'order.paid',
    contains: ['payment', 'order'],
    payload: {
      payment: { entity: { id: checkout.razorpay_payment_id } },
      order: { entity: { id: orderId, status: 'paid', amount_paid: 199_900 } },
    },
  });
  const eventIds = receiver().received.map((request) => request.headers['x-razorpay-event-id']);
  expect(eventIds[0]).toMatch(/^[A-Za-z0-9]{14}$/);
  expect(new Set(eventIds).size).toBe(3);
});

it('pays without webhooks unless asked', async () => {
  const before = sandbox().razorpay.webhookDeliveries().length;
  await sandbox().razorpay.pay(await newOrder());
  expect(sandbox().razorpay.webhookDeliveries()).toHaveLength(before);
});

it('refunds with webhooks: refund.created then refund.processed', async () => {
  const { razorpay_payment_id: paymentId } = await sandbox().razorpay.pay(await newOrder());
  const { refundId } = await sandbox().razorpay.refund(paymentId, { webhooks: true });

  expect(receiver().received.map(event)).toEqual([
    expect.objectContaining({ event: 'refund.created', contains: ['refund', 'payment'] }),
    expect.objectContaining({
      event: 'refund.processed',
      payload: {
        refund: {
          entity: expect.objectContaining({ id: refundId, payment_id: paymentId, status: 'processed' }),
        },
        payment: { entity: expect.objectContaining({ id: paymentId, status: 'refunded' }) },
      },
    }),
  ]);
});

it('delivers a built webhook with the signature of its exact bytes and returns the answer', async () => {
  const orderId = await newOrder();
  await sandbox().razorpay.pay(orderId);
  const payment = sandbox().razorpay.payments(orderId)[0]!;
  const payload = sandbox().razorpay.buildWebhook('payment.captured', { payment });

  expect(await sandbox().razorpay.deliverWebhook('payment.captured', payload)).toEqual({
    status: 200,
    body: 'ok',
  });
  const [request] = receiver().received;
  expect(request!.headers['content-type']).toBe('application/json');
  expect(event(request!)).toEqual(payload);
});

it('sends the signature and event id it is given, to the URL it is given', async () => {
  const refusing = await startReceiver({ status: 400, body: 'bad signature' });
  try {
    const answer = await sandbox().razorpay.deliverWebhook(
      'order.paid',
      { any: 'payload' },
      { url: refusing.url, signature: 'deadbeef', eventId: 'evt_replay' },
    );
    expect(answer).toEqual({ status: 400, body: 'bad signature' });
    expect(refusing.received[0]!.headers).toMatchObject({
      'x-razorpay-signature': 'deadbeef',
      'x-razorpay-event-id': 'evt_replay',
    });
  } finally {
    await refusing.close();
  }
});

it('rejects a delivery that cannot reach the service, and records it', async () => {
  const gone = await startReceiver();
  await gone.close();
  await expect(sandbox().razorpay.deliverWebhook('order.paid', {}, { url: gone.url })).rejects.toThrow();
  expect(sandbox().razorpay.webhookDeliveries().at(-1)).toMatchObject({
    event: 'order.paid',
    url: gone.url,
    status: null,
  });
});

it('still pays when the service refuses the webhooks, and records its answers', async () => {
  const failing = await startReceiver({ status: 500, body: 'down' });
  const logged: string[] = [];
  const other = await startSandbox({
    ...CREDENTIALS,
    webhookUrl: failing.url,
    log: (line) => logged.push(line),
  });
  try {
    await other.razorpay.pay(await createOrder(other), { webhooks: true });
    expect(other.razorpay.webhookDeliveries().map(({ event, status }) => [event, status])).toEqual([
      ['payment.authorized', 500],
      ['payment.captured', 500],
      ['order.paid', 500],
    ]);
    expect(logged).toHaveLength(3);
  } finally {
    await other.close();
    await failing.close();
  }
});

it('refuses to pay with webhooks when there is nowhere to send them, leaving the order unpaid', async () => {
  const without = await startSandbox(CREDENTIALS);
  try {
    const orderId = await createOrder(without);
    await expect(without.razorpay.pay(orderId, { webhooks: true })).rejects.toThrow(/No webhook URL/);
    expect(without.razorpay.order(orderId)?.status).toBe('created');
  } finally {
    await without.close();
  }
});

it('sends the refund webhooks after a refund through the API, as Razorpay does', async () => {
  const { razorpay_payment_id: paymentId } = await sandbox().razorpay.pay(await newOrder());
  const { keyId, keySecret } = CREDENTIALS.razorpay;
  const response = await fetch(`${sandbox().razorpayApiUrl}/v1/payments/${paymentId}/refund`, {
    method: 'POST',
    headers: {
      authorization: basicAuth(keyId, keySecret),
      'content-type': 'application/json',
    },
    body: JSON.stringify({ amount: 100_000 }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ entity: 'refund', amount: 100_000, payment_id: paymentId });

  const events = (await receiver().waitFor(2)).map(event);
  expect(events.map((webhook) => webhook.event)).toEqual(['refund.created', 'refund.processed']);
  expect(events[1]!.payload.payment!.entity).toMatchObject({ status: 'captured', refund_status: 'partial' });
});

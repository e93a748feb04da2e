import { AppError } from '../../src/core/errors';
import {
  createRazorpayClient,
  paymentSignature,
  signaturesMatch,
  type RazorpayClient,
} from '../../src/core/processor/razorpay-client';
import { startSandbox } from '../../src/sandbox';
import { basicAuth, CREDENTIALS, useSandbox } from './support';

const { keyId, keySecret } = CREDENTIALS.razorpay;
const sandbox = useSandbox();
let client: RazorpayClient;

beforeAll(() => {
  client = createRazorpayClient({ keyId, keySecret, apiUrl: sandbox().razorpayApiUrl }, { timeoutMs: 2_000 });
});

const newOrder = (receipt = 'rcpt-1') => client.createOrder({ amount: 19_900, currency: 'INR', receipt });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('through the razorpay SDK', () => {
  it('creates an order and fetches it back', async () => {
    const before = sandbox().razorpay.ordersCreated();
    const order = await client.createOrder({
      amount: 19_900,
      currency: 'INR',
      receipt: 'rcpt-42',
      notes: { plan: 'Monthly' },
    });
    expect(order).toEqual({
      id: expect.stringMatching(/^order_[A-Za-z0-9]{14}$/),
      entity: 'order',
      amount: 19_900,
      amount_paid: 0,
      amount_due: 19_900,
      currency: 'INR',
      receipt: 'rcpt-42',
      offer_id: null,
      status: 'created',
      attempts: 0,
      notes: { plan: 'Monthly' },
      created_at: expect.any(Number),
    });
    expect(sandbox().razorpay.ordersCreated()).toBe(before + 1);
    expect(await client.fetchOrder(order.id)).toEqual(order);
    expect(await client.fetchOrderPayments(order.id)).toEqual([]);
  });

  it('answers empty notes as [] like Razorpay', async () => {
    expect((await newOrder()).notes).toEqual([]);
  });

  it('shows a paid order with its captured payment, signed with the key secret', async () => {
    const order = await newOrder();
    const checkout = await sandbox().razorpay.pay(order.id);

    expect(checkout.razorpay_order_id).toBe(order.id);
    expect(
      signaturesMatch(
        paymentSignature(order.id, checkout.razorpay_payment_id, keySecret),
        checkout.razorpay_signature,
      ),
    ).toBe(true);
    expect(await client.fetchOrder(order.id)).toMatchObject({
      status: 'paid',
      amount_paid: 19_900,
      amount_due: 0,
      attempts: 1,
    });
    const payments = await client.fetchOrderPayments(order.id);
    expect(payments).toEqual([
      expect.objectContaining({
        id: checkout.razorpay_payment_id,
        entity: 'payment',
        amount: 19_900,
        currency: 'INR',
        status: 'captured',
        order_id: order.id,
        method: 'upi',
        captured: true,
      }),
    ]);
    expect(await client.fetchPayment(checkout.razorpay_payment_id)).toEqual(payments[0]);
    expect(sandbox().razorpay.payments(order.id)).toEqual(payments);
  });

  it('refuses to pay an order twice', async () => {
    const order = await newOrder();
    await sandbox().razorpay.pay(order.id);
    await expect(sandbox().razorpay.pay(order.id)).rejects.toThrow('Order has already been paid');
  });

  it('refunds a payment in part, then in full', async () => {
    const order = await newOrder();
    const { razorpay_payment_id: paymentId } = await sandbox().razorpay.pay(order.id);

    expect((await sandbox().razorpay.refund(paymentId, { amountPaise: 9_900 })).refundId).toMatch(/^rfnd_/);
    expect(await client.fetchPayment(paymentId)).toMatchObject({
      status: 'captured',
      amount_refunded: 9_900,
      refund_status: 'partial',
    });
    await sandbox().razorpay.refund(paymentId);
    expect(await client.fetchPayment(paymentId)).toMatchObject({
      status: 'refunded',
      amount_refunded: 19_900,
      refund_status: 'full',
    });
    await expect(sandbox().razorpay.refund(paymentId)).rejects.toThrow('fully refunded');
  });
});

describe('errors', () => {
  it.each([
    ['an amount under ₹1', { amount: 50 }, 'The amount must be atleast INR 1.00'],
    ['a fractional amount', { amount: 199.5 }, 'The amount must be an integer.'],
    [
      'a 41-character receipt',
      { receipt: 'r'.repeat(41) },
      'The receipt may not be greater than 40 characters.',
    ],
    [
      '16 notes',
      { notes: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, 'v'])) },
      'Number of fields in notes',
    ],
  ])('rejects %s as PROCESSOR_REJECTED with Razorpay’s description', async (_case, change, description) => {
    const error = await failure(
      client.createOrder({ amount: 19_900, currency: 'INR', receipt: 'rcpt', ...change }),
    );
    expect(error).toMatchObject({ kind: 'validation', code: 'PROCESSOR_REJECTED' });
    expect(error.message).toContain(description);
  });

  it('rejects an unknown order id as PROCESSOR_REJECTED', async () => {
    const error = await failure(client.fetchOrder('order_AAAAAAAAAAAAAA'));
    expect(error).toMatchObject({ code: 'PROCESSOR_REJECTED', message: 'The id provided does not exist' });
  });

  it('maps refused credentials to PROCESSOR_UNAVAILABLE without quoting the secret', async () => {
    const wrong = createRazorpayClient({
      keyId,
      keySecret: 'wrong-secret',
      apiUrl: sandbox().razorpayApiUrl,
    });
    const error = await failure(wrong.createOrder({ amount: 19_900, currency: 'INR', receipt: 'rcpt' }));
    expect(error).toMatchObject({ kind: 'unavailable', code: 'PROCESSOR_UNAVAILABLE' });
    expect(error.message).toMatch(/refused the service credentials/);
    expect(JSON.stringify([error.message, error.details])).not.toContain('wrong-secret');
  });

  it('maps a closed sandbox to PROCESSOR_UNAVAILABLE', async () => {
    const closed = await startSandbox(CREDENTIALS);
    await closed.close();
    const unreachable = createRazorpayClient({ keyId, keySecret, apiUrl: closed.razorpayApiUrl });
    expect(await failure(unreachable.fetchOrder('order_AAAAAAAAAAAAAA'))).toMatchObject({
      kind: 'unavailable',
      code: 'PROCESSOR_UNAVAILABLE',
    });
  });

  it.each([
    ['an HTML 502', { status: 502 }],
    ['a JSON 500', { status: 500, body: { error: { code: 'SERVER_ERROR', description: 'boom' } } }],
    ['a 429', { status: 429 }],
    ['a dropped connection', { drop: true as const }],
  ])('maps %s to PROCESSOR_UNAVAILABLE', async (_case, fault) => {
    sandbox().faults.set('razorpay.orders.create', fault);
    expect(await failure(newOrder())).toMatchObject({ kind: 'unavailable', code: 'PROCESSOR_UNAVAILABLE' });
  });

  it('maps a reply slower than the client timeout to PROCESSOR_UNAVAILABLE', async () => {
    const impatient = createRazorpayClient(
      { keyId, keySecret, apiUrl: sandbox().razorpayApiUrl },
      { timeoutMs: 50 },
    );
    sandbox().faults.set('razorpay.orders.fetch', { delayMs: 60_000 });
    expect(await failure(impatient.fetchOrder('order_AAAAAAAAAAAAAA'))).toMatchObject({
      code: 'PROCESSOR_UNAVAILABLE',
    });
  });

  it('maps a faulted 400 to PROCESSOR_REJECTED with its description', async () => {
    const body = { error: { code: 'BAD_REQUEST_ERROR', description: 'Order amount exceeds the maximum' } };
    sandbox().faults.set('razorpay.orders.create', { status: 400, body, times: 1 });
    expect(await failure(newOrder())).toMatchObject({
      kind: 'validation',
      code: 'PROCESSOR_REJECTED',
      message: 'Order amount exceeds the maximum',
    });
    expect((await newOrder()).status).toBe('created');
  });
});

describe('the REST API without the SDK', () => {
  const authorization = basicAuth(keyId, keySecret);
  const post = (path: string, body: unknown, headers: Record<string, string> = { authorization }) =>
    fetch(`${sandbox().razorpayApiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers a missing key with 401 and Razorpay’s error body', async () => {
    const response = await post('/v1/orders', { amount: 19_900, currency: 'INR' }, {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: expect.objectContaining({ code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' }),
    });
  });

  it('names the field of a validation failure', async () => {
    const response = await post('/v1/orders', { amount: 10, currency: 'INR' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: 'The amount must be atleast INR 1.00',
        field: 'amount',
        source: 'business',
        step: 'payment_initiation',
        reason: 'input_validation_failed',
        metadata: {},
      },
    });
  });

  it('rejects fields Razorpay does not take', async () => {
    const response = await post('/v1/orders', { amount: 19_900, currency: 'INR', customer: 'x' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { field: 'customer' } });
  });

  it('rejects a body that is not JSON', async () => {
    const response = await fetch(`${sandbox().razorpayApiUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"amount":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'BAD_REQUEST_ERROR' } });
  });

  it('answers an unknown URL with 400 like Razorpay', async () => {
    const response = await fetch(`${sandbox().razorpayApiUrl}/v1/nothing`, { headers: { authorization } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'BAD_REQUEST_ERROR' } });
  });
});

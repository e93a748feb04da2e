import { paymentSignature } from '../../src/core/processor/razorpay-client';
import { createOrder, CREDENTIALS, useSandboxWithReceiver } from './support';

const CALLBACK_URL = 'http://localhost:5173/payment/done?plan=Monthly';
const { sandbox, receiver } = useSandboxWithReceiver();

function checkoutUrl(orderId: string, callbackUrl = CALLBACK_URL): string {
  return `${sandbox().razorpayCheckoutUrl}?${new URLSearchParams({ order_id: orderId, callback_url: callbackUrl })}`;
}

function choose(orderId: string, decision: string) {
  return fetch(checkoutUrl(orderId), {
    method: 'POST',
    body: new URLSearchParams({ decision }),
    redirect: 'manual',
  });
}

it('shows the order amount with Pay and Fail buttons', async () => {
  const orderId = await createOrder(sandbox());
  const response = await fetch(checkoutUrl(orderId));
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await response.text();
  expect(html).toContain('₹199.00');
  expect(html).toContain('value="pay"');
  expect(html).toContain('value="fail"');
});

it('Pay pays the order, redirects with the signed response and sends the webhooks', async () => {
  const orderId = await createOrder(sandbox());
  const received = receiver().received.length;
  const response = await choose(orderId, 'pay');

  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/payment/done');
  expect(location.searchParams.get('plan')).toBe('Monthly');
  const paymentId = location.searchParams.get('razorpay_payment_id')!;
  expect(location.searchParams.get('razorpay_order_id')).toBe(orderId);
  expect(location.searchParams.get('razorpay_signature')).toBe(
    paymentSignature(orderId, paymentId, CREDENTIALS.razorpay.keySecret),
  );
  expect(sandbox().razorpay.order(orderId)?.status).toBe('paid');

  const events = (await receiver().waitFor(received + 3)).slice(received);
  expect(events.map((request) => JSON.parse(request.body.toString()).event)).toEqual([
    'payment.authorized',
    'payment.captured',
    'order.paid',
  ]);
});

it('Fail redirects with error=payment_failed, sends payment.failed and leaves the order payable', async () => {
  const orderId = await createOrder(sandbox());
  const received = receiver().received.length;
  const response = await choose(orderId, 'fail');
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(location.searchParams.get('error')).toBe('payment_failed');
  expect(sandbox().razorpay.order(orderId)).toMatchObject({
    status: 'attempted',
    attempts: 1,
    amount_paid: 0,
  });
  const [failed] = sandbox().razorpay.payments(orderId);
  expect(failed).toMatchObject({
    id: location.searchParams.get('razorpay_payment_id'),
    status: 'failed',
    captured: false,
    error_reason: 'payment_failed',
  });
  const [event] = (await receiver().waitFor(received + 1)).slice(received);
  expect(JSON.parse(event!.body.toString())).toMatchObject({
    event: 'payment.failed',
    payload: { payment: { entity: { id: failed!.id, status: 'failed' } } },
  });
  expect((await choose(orderId, 'pay')).status).toBe(302);
  expect(sandbox().razorpay.order(orderId)).toMatchObject({ status: 'paid', attempts: 2 });
});

it.each([
  ['an unknown order', 'order_AAAAAAAAAAAAAA', CALLBACK_URL],
  ['a callback that is not a URL', undefined, 'javascript:alert(1)'],
])('answers %s with a 400 page', async (_case, orderId, callbackUrl) => {
  const response = await fetch(checkoutUrl(orderId ?? (await createOrder(sandbox())), callbackUrl));
  expect(response.status).toBe(400);
});

it('will not take a second payment for a paid order', async () => {
  const orderId = await createOrder(sandbox());
  await sandbox().razorpay.pay(orderId);
  expect((await fetch(checkoutUrl(orderId))).status).toBe(400);
  expect((await choose(orderId, 'pay')).status).toBe(400);
  expect(sandbox().razorpay.payments(orderId)).toHaveLength(1);
});

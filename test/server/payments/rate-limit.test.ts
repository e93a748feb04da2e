import { randomInt } from 'node:crypto';
import { createUser } from '../../support/fixtures';
import { bearer, MONTHLY_USER, post, usePaymentsApp } from './harness';

const getApp = usePaymentsApp({ RATE_LIMIT_PER_MINUTE: '2' });

/** Rate-limit counters live in Redis for a minute: ids unique across runs keep runs apart. */
const freshUser = () => createUser({ providerId: `${Date.now()}${randomInt(1_000_000)}` });

describe('payment route rate limits', () => {
  // Bodies that pass validation: a body refused by its schema never reaches the limiter (nor the database).
  const requests = {
    '/api/payment/create-order': (providerId: string) => ({ ...MONTHLY_USER, providerId }),
    '/api/payment/verify-payment': (providerId: string) => ({
      providerId,
      processor_order_id: 'order_Unknown0000001',
      processor_payment_id: 'pay_Unknown00000001',
      processor_signature: 'ab'.repeat(32),
    }),
  };

  it.each(Object.entries(requests))('limits %s per signed-in user, whatever their IP', async (url, body) => {
    const [user, other] = [await freshUser(), await freshUser()];
    const send = (who: typeof user) => post(getApp(), url, body(who.providerId), bearer(getApp(), who));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(user)).statusCode);

    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses[2]).toBe(429);
    expect((await send(user)).json()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.any(String) },
    });
    expect((await send(other)).statusCode).not.toBe(429);
  });

  it('never limits Razorpay webhooks', async () => {
    for (let i = 0; i < 4; i++) {
      const reply = await getApp().app.inject({
        method: 'POST',
        url: '/api/payment/webhook',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-event-id': `evt_${i}`,
          'x-razorpay-signature': 'ab',
        },
        payload: '{}',
      });
      expect(reply.statusCode).toBe(400);
    }
  });
});

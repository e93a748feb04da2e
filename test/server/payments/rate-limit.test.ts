import { randomInt } from 'node:crypto';
import { Order } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import { bearer, MONTHLY_USER, usePaymentsApp } from '../../support/payments-app';

const getApp = usePaymentsApp({ RATE_LIMIT_PER_MINUTE: '2', WEBHOOK_RATE_LIMIT_PER_MINUTE: '4' });

/** Each test is a client (or several) of its own. */
const clientIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

function postFrom(remoteAddress: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  return getApp().app.inject({ method: 'POST', url, remoteAddress, headers, payload: body as object });
}

describe('payment route rate limits', () => {
  // Bodies that pass validation, so that only the limits refuse them.
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
    const [user, other] = [await createUser(), await createUser()];
    const send = (who: typeof user) =>
      postFrom(clientIp(), url, body(who.providerId), { authorization: bearer(getApp(), who) });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(user)).statusCode);

    expect(statuses.slice(0, 2)).not.toContain(429);
    expect(statuses[2]).toBe(429);
    const limited = await send(user);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(other)).statusCode).not.toBe(429);
  });

  it.each(Object.entries(requests))(
    'counts requests to %s refused for a bad token or a bad body against the IP, before authentication',
    async (url, body) => {
      const user = await createUser();
      const ip = clientIp();
      const badToken = await postFrom(ip, url, body(user.providerId), { authorization: 'Bearer a.b.c' });
      const badBody = await postFrom(ip, url, { nonsense: true }, { authorization: bearer(getApp(), user) });
      expect([badToken.statusCode, badBody.statusCode]).toEqual([401, 400]);

      const third = await postFrom(ip, url, body(user.providerId), { authorization: bearer(getApp(), user) });
      expect(third.statusCode).toBe(429);
      expect(third.json().error.code).toBe('RATE_LIMITED');
      expect(await Order.count()).toBe(0);
    },
  );

  it('limits Razorpay webhooks per IP at WEBHOOK_RATE_LIMIT_PER_MINUTE', async () => {
    const ip = clientIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const reply = await postFrom(ip, '/api/payment/webhook', '{}', {
        'content-type': 'application/json',
        'x-razorpay-event-id': `evt_${i}`,
        'x-razorpay-signature': 'ab',
      });
      statuses.push(reply.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  it('limits /readyz per IP, but never the liveness probe', async () => {
    const ip = clientIp();
    const get = (url: string) => getApp().app.inject({ method: 'GET', url, remoteAddress: ip });
    expect([(await get('/readyz')).statusCode, (await get('/readyz')).statusCode]).toEqual([200, 200]);
    expect((await get('/readyz')).statusCode).toBe(429);
    for (let i = 0; i < 4; i++) expect((await get('/healthz')).statusCode).toBe(200);
  });
});

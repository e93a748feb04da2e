import { useTestApp } from '../../support/app';
import { createUser } from '../../support/fixtures';
import { bearer } from '../../support/payments-app';

const getApp = useTestApp();

function call(method: 'GET' | 'POST', url: string, authorization?: string) {
  return getApp().app.inject({ method, url, headers: authorization ? { authorization } : {} });
}
const logout = (authorization?: string) => call('POST', '/api/auth/logout', authorization);

describe('POST /api/auth/logout', () => {
  it('ends the session: the same token gets 401 SESSION_ENDED on the user routes from then on', async () => {
    const user = await createUser();
    const token = bearer(getApp(), user);
    expect((await call('GET', '/api/payment/orders', token)).statusCode).toBe(200);

    const reply = await logout(token);

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ signedOut: true });
    for (const [method, url] of [
      ['GET', '/api/payment/orders'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/premium/slots'],
      ['POST', '/api/auth/logout'],
    ] as const) {
      const after = await call(method, url, token);
      expect([url, after.statusCode, after.json().error.code]).toEqual([url, 401, 'SESSION_ENDED']);
    }
  });

  it("ends that session only: the user's other sign-in, even of the same second, keeps working", async () => {
    const user = await createUser();
    const [phone, laptop] = [bearer(getApp(), user), bearer(getApp(), user)];

    await logout(phone);

    expect((await call('GET', '/api/payment/orders', laptop)).statusCode).toBe(200);
  });

  it('remembers the ended token only until it would have expired anyway, and never the token itself', async () => {
    const token = bearer(getApp(), await createUser());
    await logout(token);

    const { redis, core } = getApp();
    const keys = await redis.keys(`${core.config.redisKeyPrefix}session-ended:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.some((key) => key.includes(token.slice('Bearer '.length)))).toBe(false);
    const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
    for (const ttl of ttls) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual((24 * 3600 + 5) * 1000);
    }
  });

  it('needs a valid token: none is 401 AUTHENTICATION_REQUIRED', async () => {
    const reply = await logout();
    expect([reply.statusCode, reply.json().error.code]).toEqual([401, 'AUTHENTICATION_REQUIRED']);
  });
});

import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../../src/server/app';
import { apiRedisOptions } from '../../../src/server/redis-options';
import { useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';
import { bearer } from '../../support/payments-app';
import { FRONTEND_URL, redirectOf } from '../../support/sign-in-app';

const getCore = useTestCore({ FRONTEND_URL });

describe('with Redis unreachable', () => {
  let app: FastifyInstance;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis('redis://127.0.0.1:1', apiRedisOptions());
    redis.on('error', () => {});
    app = await buildApp({ core: getCore(), redis });
  });
  afterAll(async () => {
    await app.close();
    redis.disconnect();
  });

  it.each([['/api/auth/login'], ['/api/auth/idp/callback?code=c&state=0123456789abcdef0123456789abcdef']])(
    'sends the browser from %s back to the login page',
    async (url) => {
      const location = redirectOf(await app.inject({ method: 'GET', url }));
      expect(location.toString()).toBe(`${FRONTEND_URL}/login?error=server_error`);
    },
  );

  it('answers /readyz 503 naming Redis as down, never the error itself', async () => {
    const reply = await app.inject({ method: 'GET', url: '/readyz' });
    expect(reply.statusCode).toBe(503);
    expect(reply.json()).toEqual({ status: 'unavailable', postgres: 'ok', redis: 'down' });
  });

  it("still serves a buyer's session routes, and says a sign-out could not be recorded", async () => {
    const token = bearer({ core: getCore(), app, redis }, await createUser());
    const call = (method: 'GET' | 'POST', url: string) =>
      app.inject({ method, url, headers: { authorization: token } });

    expect((await call('GET', '/api/payment/orders')).statusCode).toBe(200);
    const logout = await call('POST', '/api/auth/logout');
    expect([logout.statusCode, logout.json().error.code]).toEqual([502, 'SIGN_OUT_UNAVAILABLE']);
  });

  it('still answers the rate-limited status route: limits lapse rather than take the API down', async () => {
    const user = await createUser();
    const reply = await app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      isPremium: false,
      premiumExpiresAt: null,
      tier: null,
      features: {},
      tiers: [],
    });
  });
});

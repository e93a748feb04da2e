import { grantPremium } from '../../src/core/premium/grant';
import { useTestApp } from '../support/app';
import { createUser, grantRequest, snowflake } from '../support/fixtures';

const getApp = useTestApp();

describe('GET /api/auth/user/:providerId', () => {
  it('answers a user without premium', async () => {
    const user = await createUser();
    const reply = await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      isPremium: false,
      premiumExpiresAt: null,
      tier: null,
      features: {},
      tiers: [],
    });
  });

  it('answers live status with an ISO UTC expiry after a grant', async () => {
    const user = await createUser();
    const change = await grantPremium(getApp().core.sequelize, grantRequest(user.providerId));
    const reply = await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    const expiresAt = change.expiresAt.toISOString();
    expect(reply.json()).toEqual({
      isPremium: true,
      premiumExpiresAt: expiresAt,
      tier: 'premium',
      features: {},
      tiers: [{ tier: 'premium', startsAt: expect.any(String), expiresAt }],
    });
    expect(reply.json().premiumExpiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('computes isPremium at read time: a past expiry is not premium', async () => {
    const user = await createUser({ premiumExpiresAt: new Date(Date.now() - 1000) });
    const reply = await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    expect(reply.json()).toMatchObject({ isPremium: false });
  });

  it('404s an unknown user and 400s a malformed id, in the one error shape', async () => {
    const unknown = await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${snowflake()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'USER_NOT_FOUND', message: expect.any(String) } });

    const malformed = await getApp().app.inject({ method: 'GET', url: '/api/auth/user/not-a-snowflake' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [expect.objectContaining({ field: 'params/providerId' })],
    });
  });
});

describe('the HTTP shell', () => {
  it('answers an unknown route with the JSON error shape', async () => {
    const reply = await getApp().app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no route GET /api/nothing-here' } });
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const reply = await getApp().app.inject({
      method: 'POST',
      url: '/api/auth/user/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(reply.statusCode).toBeGreaterThanOrEqual(400);
    expect(reply.statusCode).toBeLessThan(500);
    expect(reply.body).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(reply.json()).toHaveProperty('error.code');
  });

  it('is alive, ready when Postgres and Redis answer, and exposes metrics (off the public port) and docs', async () => {
    const { app } = getApp();
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', postgres: 'ok', redis: 'ok' });

    expect((await app.inject('/metrics')).statusCode).toBe(404);
    const notFoundCount = async () => {
      const metrics = await app.metrics.metrics();
      const line =
        /http_request_duration_seconds_count\{method="GET",route="\/api\/auth\/user\/:providerId",status_code="404"\} (\d+)/.exec(
          metrics,
        );
      return Number(line?.[1] ?? 0);
    };
    const before = await notFoundCount();
    await app.inject('/api/auth/user/1');
    expect(await notFoundCount()).toBe(before + 1);

    const docs = await app.inject('/docs/json');
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/auth/user/{providerId}');
  });
});

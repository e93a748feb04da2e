import { randomInt } from 'node:crypto';
import { issueSessionToken } from '../../../src/core/session';
import { useTestApp } from '../../support/app';
import { createUser } from '../../support/fixtures';

const getApp = useTestApp({ RATE_LIMIT_PER_MINUTE: '3' });

/** Counters live in Redis, shared with other tests and runs: each test is a client of its own. */
const clientIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

function get(url: string, remoteAddress: string, headers: Record<string, string> = {}) {
  return getApp().app.inject({ method: 'GET', url, remoteAddress, headers });
}

describe('rate limits (RATE_LIMIT_PER_MINUTE=3)', () => {
  it.each([
    ['/api/auth/login'],
    ['/api/auth/idp/callback?code=c&state=s'],
    ['/api/auth/user/80351110224678912'],
  ])('lets each IP call %s 3 times a minute, then answers 429 in the JSON error shape', async (url) => {
    const ip = clientIp();
    const allowed = [await get(url, ip), await get(url, ip), await get(url, ip)];
    expect(allowed.map((reply) => reply.statusCode)).not.toContain(429);
    expect(allowed.map((reply) => reply.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);

    const limited = await get(url, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    for (const header of ['x-ratelimit-reset', 'retry-after']) {
      const seconds = Number(limited.headers[header]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
    }

    expect((await get(url, clientIp())).statusCode).not.toBe(429);
  });

  it('counts requests that arrive together one by one: 3 of 8 at once pass, each with its own count', async () => {
    const [ip, other] = [clientIp(), clientIp()];
    const url = '/api/auth/user/80351110224678912';
    const together = await Promise.all([
      ...Array.from({ length: 8 }, () => get(url, ip)),
      ...Array.from({ length: 2 }, () => get(url, other)),
    ]);
    const fromIp = together.slice(0, 8);

    expect(fromIp.filter((reply) => reply.statusCode === 429)).toHaveLength(5);
    const passed = fromIp.filter((reply) => reply.statusCode !== 429);
    expect(passed.map((reply) => reply.headers['x-ratelimit-remaining']).sort()).toEqual(['0', '1', '2']);
    expect(together.slice(8).map((reply) => reply.headers['x-ratelimit-remaining'])).toEqual(['2', '1']);
    const { redis, core } = getApp();
    const counter = `${core.config.redisKeyPrefix}rate-limit:ip:${ip}:GET/api/auth/user/:providerId`;
    expect(await redis.get(counter)).toBe('8');
    expect(await redis.pttl(counter)).toBeGreaterThan(50_000);
  });

  it('counts GET /api/auth/me per signed-in user, whatever their IP', async () => {
    const { jwtSecret } = getApp().core.config;
    const bearer = async () => {
      const user = await createUser();
      const token = issueSessionToken(jwtSecret, {
        providerId: user.providerId,
        username: 'fan',
        avatar: null,
      });
      return { authorization: `Bearer ${token}` };
    };
    const [first, second] = [await bearer(), await bearer()];
    const ip = clientIp();

    for (const from of [ip, clientIp(), clientIp()])
      expect((await get('/api/auth/me', from, first)).statusCode).toBe(200);
    expect((await get('/api/auth/me', clientIp(), first)).statusCode).toBe(429);
    expect((await get('/api/auth/me', ip, second)).statusCode).toBe(200);
  });
});

import { randomInt } from 'node:crypto';
import { useTestApp } from '../support/app';

const getApp = useTestApp({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '10.99.0.0/16' });

/** Counters live in Redis, shared with other runs: each test's clients are its own. */
const someIp = (first: number) => `${first}.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

function remaining(remoteAddress: string, forwardedFor: string): Promise<string | undefined> {
  return getApp()
    .app.inject({
      method: 'GET',
      url: '/api/auth/login',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    })
    .then((reply) => reply.headers['x-ratelimit-remaining'] as string | undefined);
}

describe('TRUST_PROXY=10.99.0.0/16', () => {
  it('believes X-Forwarded-For from the listed proxies: each buyer behind them counts on its own', async () => {
    const proxy = `10.99.${randomInt(256)}.${randomInt(256)}`;
    expect([await remaining(proxy, someIp(100)), await remaining(proxy, someIp(101))]).toEqual(['2', '2']);
  });

  it('ignores X-Forwarded-For from anyone else: the caller cannot pick a fresh IP per request', async () => {
    const caller = someIp(172);
    expect([await remaining(caller, someIp(100)), await remaining(caller, someIp(101))]).toEqual(['2', '1']);
  });
});

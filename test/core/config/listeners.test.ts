import { isLoopback, loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

const SECRETS = {
  JWT_SECRET: 'j'.repeat(32),
  DISCORD_CLIENT_ID: 'client',
  DISCORD_CLIENT_SECRET: 'client-secret',
  RAZORPAY_KEY_ID: 'rzp_test_key',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
};

describe('development fallbacks serve this machine only', () => {
  it.each(['development', 'test'])(
    'under NODE_ENV=%s, a public HOST refuses every secret left to its development fallback, naming both',
    (nodeEnv) => {
      const problems = problemsOf({ NODE_ENV: nodeEnv, HOST: '0.0.0.0', JWT_SECRET: SECRETS.JWT_SECRET });
      expect(problems).toEqual(
        Object.keys(SECRETS)
          .filter((name) => name !== 'JWT_SECRET')
          .map(
            (name) =>
              `${name}: is required while HOST=0.0.0.0 is not a loopback address (the development fallback is public: it serves this machine only)`,
          ),
      );
    },
  );

  it('counts the metrics listener too', () => {
    expect(problemsOf({ NODE_ENV: 'development', METRICS_HOST: '::' })).toContain(
      'JWT_SECRET: is required while METRICS_HOST=:: is not a loopback address (the development fallback is public: it serves this machine only)',
    );
    expect(problemsOf({ NODE_ENV: 'development', HOST: '10.0.0.5', METRICS_HOST: '0.0.0.0' })).toContain(
      'RAZORPAY_WEBHOOK_SECRET: is required while HOST=10.0.0.5 is not a loopback address and METRICS_HOST=0.0.0.0 is not a loopback address (the development fallback is public: it serves this machine only)',
    );
  });

  it('lets development listen anywhere with its own secrets, and on loopback with the fallbacks', () => {
    expect(
      loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0', METRICS_HOST: '0.0.0.0', ...SECRETS }),
    ).toMatchObject({ host: '0.0.0.0', metricsHost: '0.0.0.0', jwtSecret: SECRETS.JWT_SECRET });
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost'])
      expect(loadConfig({ NODE_ENV: 'development', HOST: host, METRICS_HOST: host }).host).toBe(host);
  });

  it('knows loopback addresses from the rest', () => {
    for (const host of ['127.0.0.1', '127.255.0.1', '::1', 'LOCALHOST']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopback(host)).toBe(false);
  });
});

describe('listener and exposure settings', () => {
  it('default to metrics on loopback, 30 s for a whole request, and /docs hidden under production', () => {
    const production = loadConfig({
      NODE_ENV: 'production',
      PLAN_PRICES: 'Monthly=199,Yearly=1999',
      ...SECRETS,
    });
    expect(production).toMatchObject({
      host: '0.0.0.0',
      metricsHost: '127.0.0.1',
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      docsPublic: false,
    });
  });

  it('take their settings and name a wrong one', () => {
    expect(
      loadConfig({
        NODE_ENV: 'test',
        METRICS_HOST: '127.0.0.2',
        REQUEST_TIMEOUT_MS: '5000',
        KEEP_ALIVE_TIMEOUT_MS: '1000',
        DOCS_PUBLIC: 'true',
      }),
    ).toMatchObject({
      metricsHost: '127.0.0.2',
      requestTimeoutMs: 5000,
      keepAliveTimeoutMs: 1000,
      docsPublic: true,
    });
    expect(problemsOf({ NODE_ENV: 'test', REQUEST_TIMEOUT_MS: '0', DOCS_PUBLIC: 'yes' })).toEqual([
      expect.stringMatching(/^REQUEST_TIMEOUT_MS: /),
      'DOCS_PUBLIC: must be true or false',
    ]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../../src/core/config';

describe('loadConfig', () => {
  it('gives every variable its documented default in development', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      // Only this machine can reach a development API.
      host: '127.0.0.1',
      metricsPort: 9465,
      redisKeyPrefix: 'premium:',
      corsOrigins: ['http://localhost:3000'],
      maxOpenOrders: 10,
      offerHoldMinutes: 60,
      webhookRateLimitPerMinute: 6000,
      redisUrl: 'redis://127.0.0.1:6379',
      eventsStream: 'premium:events',
      rateLimitPerMinute: 120,
      workerPort: 9464,
      oauthStateTtlSeconds: 300,
      planPrices: { Monthly: 199, Yearly: 1999 },
      discord: {
        apiUrl: 'https://discord.com/api/v10',
        authorizeUrl: 'https://discord.com/oauth2/authorize',
      },
      razorpay: { apiUrl: 'https://api.razorpay.com' },
    });
    expect(config.databaseUrl).toMatch(/^postgres:\/\/[^@]+@localhost:5432\/premium$/);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('reports every problem at once, by variable name', () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: 'test',
        PORT: 'eighty',
        DATABASE_URL: 'not a url',
        JWT_SECRET: 'short',
        PLAN_PRICES: 'Monthly=abc',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'PLAN_PRICES'])
      expect(problems).toContain(`${name}:`);
  });

  it('requires every secret and the prices in production, and never echoes a secret value', () => {
    const attempt = () => loadConfig({ NODE_ENV: 'production', RAZORPAY_KEY_SECRET: 'rzp-secret-value' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems;
      for (const name of [
        'JWT_SECRET',
        'DISCORD_CLIENT_ID',
        'DISCORD_CLIENT_SECRET',
        'RAZORPAY_KEY_ID',
        'RAZORPAY_WEBHOOK_SECRET',
        'PLAN_PRICES',
      ]) {
        expect(problems).toContain(`${name}: is required in production`);
      }
      expect(problems.join('\n')).not.toContain('RAZORPAY_KEY_SECRET');
      expect((error as Error).message).not.toContain('rzp-secret-value');
    }
  });

  it('treats an empty variable as unset and parses the plan prices', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '',
      PLAN_PRICES: 'Monthly=99, Yearly=999',
      FRONTEND_URL: 'https://premium.example/',
    });
    expect(config.port).toBe(3000);
    expect(config.planPrices).toEqual({ Monthly: 99, Yearly: 999 });
    expect(config.frontendUrl).toBe('https://premium.example');
    expect(config.corsOrigins).toEqual(['https://premium.example']);
  });

  it('fails closed: NODE_ENV unset is production, every missing secret named, and says so', () => {
    let error: unknown;
    try {
      loadConfig({});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'JWT_SECRET: is required in production',
      'DISCORD_CLIENT_ID: is required in production',
      'DISCORD_CLIENT_SECRET: is required in production',
      'RAZORPAY_KEY_ID: is required in production',
      'RAZORPAY_KEY_SECRET: is required in production',
      'RAZORPAY_WEBHOOK_SECRET: is required in production',
      'PLAN_PRICES: is required in production',
      'NODE_ENV: unset, which means production (development and test use the sandbox secrets)',
    ]);
  });

  it('listens on every interface in production, and takes the new settings', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      DISCORD_CLIENT_ID: 'client',
      DISCORD_CLIENT_SECRET: 'secret',
      RAZORPAY_KEY_ID: 'rzp_live_key',
      RAZORPAY_KEY_SECRET: 'secret',
      RAZORPAY_WEBHOOK_SECRET: 'secret',
      PLAN_PRICES: 'Monthly=199,Yearly=1999',
      CORS_ORIGINS: 'https://premium.example, https://admin.premium.example',
      REDIS_KEY_PREFIX: 'staging:',
      METRICS_PORT: '9000',
      MAX_OPEN_ORDERS: '3',
      WEBHOOK_RATE_LIMIT_PER_MINUTE: '100',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      corsOrigins: ['https://premium.example', 'https://admin.premium.example'],
      redisKeyPrefix: 'staging:',
      metricsPort: 9000,
      maxOpenOrders: 3,
      webhookRateLimitPerMinute: 100,
    });
  });

  it('takes OFFER_HOLD_MINUTES as whole minutes from 1 to a week, naming any other value', () => {
    expect(loadConfig({ NODE_ENV: 'test', OFFER_HOLD_MINUTES: '15' }).offerHoldMinutes).toBe(15);
    for (const value of ['0', '-5', '2.5', 'an hour', '10081']) {
      expect(() => loadConfig({ NODE_ENV: 'test', OFFER_HOLD_MINUTES: value })).toThrow(
        /OFFER_HOLD_MINUTES: /,
      );
    }
  });

  it('refuses a CORS origin that is a wildcard or not an origin', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: '*' })).toThrow(
      /CORS_ORIGINS: "\*" is not an origin/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', CORS_ORIGINS: 'https://a.example/path' })).toThrow(
      /CORS_ORIGINS: "https:\/\/a.example\/path" is not an origin/,
    );
  });

  it('reads a Sentinel set or a Cluster instead of REDIS_URL, and how the relay hears of new rows', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      redis: { mode: 'single' },
      outbox: { pollIntervalMs: 1000, listenUrl: loadConfig({ NODE_ENV: 'test' }).databaseUrl },
      eventsStreamMinReplicas: 0,
    });
    expect(
      loadConfig({
        NODE_ENV: 'test',
        REDIS_SENTINELS: 'sentinel-a:26379, [::1]:26380',
        REDIS_SENTINEL_MASTER: 'premium',
        REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
        REDIS_PASSWORD: 'redis-secret',
        OUTBOX_LISTEN: 'false',
        OUTBOX_POLL_INTERVAL_MS: '200',
      }),
    ).toMatchObject({
      redis: {
        mode: 'sentinel',
        sentinels: [
          { host: 'sentinel-a', port: 26379 },
          { host: '::1', port: 26380 },
        ],
        masterName: 'premium',
        password: 'redis-secret',
        sentinelPassword: 'sentinel-secret',
      },
      outbox: { pollIntervalMs: 200, listenUrl: null },
    });
    expect(
      loadConfig({
        NODE_ENV: 'test',
        REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2:7000',
        OUTBOX_LISTEN_URL: 'postgres://relay@db.internal:5432/premium',
        EVENTS_STREAM_MIN_REPLICAS: '1',
      }),
    ).toMatchObject({
      redis: {
        mode: 'cluster',
        nodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: '10.0.0.2', port: 7000 },
        ],
      },
      outbox: { listenUrl: 'postgres://relay@db.internal:5432/premium' },
      eventsStreamMinReplicas: 1,
    });
  });

  it('names each wrong Redis or outbox setting', () => {
    const problems = (env: NodeJS.ProcessEnv): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems;
      }
    };
    expect(
      problems({
        REDIS_SENTINELS: 'sentinel-a',
        REDIS_CLUSTER_NODES: '10.0.0.1:99999',
        OUTBOX_LISTEN: 'no',
        OUTBOX_POLL_INTERVAL_MS: '0',
      }),
    ).toEqual(
      expect.arrayContaining([
        'REDIS_SENTINELS: "sentinel-a" is not host:port',
        'REDIS_CLUSTER_NODES: "10.0.0.1:99999" is not host:port',
        'OUTBOX_LISTEN: must be true or false',
        expect.stringMatching(/^OUTBOX_POLL_INTERVAL_MS: /),
      ]),
    );
    const conflicting = () =>
      loadConfig({
        REDIS_SENTINELS: 'a:1',
        REDIS_CLUSTER_NODES: 'b:2',
        OUTBOX_LISTEN: 'false',
        OUTBOX_LISTEN_URL: 'postgres://x@y/z',
      });
    expect(conflicting).toThrow(/REDIS_CLUSTER_NODES: set either it or REDIS_SENTINELS/);
    expect(conflicting).toThrow(/REDIS_SENTINEL_MASTER: is required with REDIS_SENTINELS/);
    expect(conflicting).toThrow(/OUTBOX_LISTEN_URL: is unused with OUTBOX_LISTEN=false/);
  });

  it('speaks TLS to Redis with REDIS_TLS or a rediss:// REDIS_URL, trusting the CA file read at load', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-config-'));
    const caFile = path.join(dir, 'ca.pem');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    fs.writeFileSync(caFile, pem);
    try {
      expect(loadConfig({ NODE_ENV: 'test' }).redis.tls).toBeUndefined();
      expect(loadConfig({ NODE_ENV: 'test', REDIS_URL: 'rediss://redis.internal:6380' }).redis).toEqual({
        mode: 'single',
        tls: {},
      });
      expect(
        loadConfig({
          NODE_ENV: 'test',
          REDIS_SENTINELS: 'sentinel-a:26379',
          REDIS_SENTINEL_MASTER: 'premium',
          REDIS_TLS: 'true',
          REDIS_TLS_CA_FILE: caFile,
        }).redis,
      ).toMatchObject({ mode: 'sentinel', tls: { ca: pem } });
      expect(
        loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: '10.0.0.1:7000', REDIS_TLS: 'true' }).redis,
      ).toMatchObject({ mode: 'cluster', tls: {} });
      // A rediss:// REDIS_URL says nothing of a Cluster's TLS.
      expect(() =>
        loadConfig({
          NODE_ENV: 'test',
          REDIS_URL: 'rediss://redis.internal:6380',
          REDIS_CLUSTER_NODES: '10.0.0.1:7000',
          REDIS_TLS_CA_FILE: caFile,
        }),
      ).toThrow(/REDIS_TLS_CA_FILE: is unused without REDIS_TLS=true/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a REDIS_TLS that is not true or false and a REDIS_TLS_CA_FILE it cannot read', () => {
    const missing = path.join(os.tmpdir(), 'premium-no-such-dir', 'ca.pem');
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_TLS: 'yes', REDIS_TLS_CA_FILE: missing })).toThrow(
      new ConfigError([
        'REDIS_TLS: must be true or false',
        `REDIS_TLS_CA_FILE: cannot read ${missing} (ENOENT)`,
      ]),
    );
    const notPem = path.resolve(__dirname, '../../../package.json');
    expect(() => loadConfig({ NODE_ENV: 'test', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: notPem })).toThrow(
      `REDIS_TLS_CA_FILE: ${notPem} holds no PEM certificate`,
    );
  });
});

import { ConfigError, loadConfig } from '../../src/core/config';

describe('loadConfig', () => {
  it('gives every variable its documented default in development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
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
      PORT: '',
      PLAN_PRICES: 'Monthly=99, Yearly=999',
      FRONTEND_URL: 'https://premium.example/',
    });
    expect(config.port).toBe(3000);
    expect(config.planPrices).toEqual({ Monthly: 99, Yearly: 999 });
    expect(config.frontendUrl).toBe('https://premium.example');
  });
});

import { ConfigError, loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

/** What development fills in for each secret left unset: public, since it is in the source. */
const fallback = loadConfig({ NODE_ENV: 'development' });
const PUBLIC_VALUES = {
  JWT_SECRET: fallback.jwtSecret,
  DISCORD_CLIENT_ID: fallback.discord.clientId,
  DISCORD_CLIENT_SECRET: fallback.discord.clientSecret,
  RAZORPAY_KEY_ID: fallback.razorpay.keyId,
  RAZORPAY_KEY_SECRET: fallback.razorpay.keySecret,
  RAZORPAY_WEBHOOK_SECRET: fallback.razorpay.webhookSecret,
};

const OWN_SECRETS = {
  JWT_SECRET: 'a-production-secret-of-32-characters',
  DISCORD_CLIENT_ID: 'client',
  DISCORD_CLIENT_SECRET: 'client-secret',
  RAZORPAY_KEY_ID: 'rzp_live_key',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
};

const PRODUCTION = { NODE_ENV: 'production', PLAN_PRICES: 'Monthly=199,Yearly=1999' };

describe('the public development secrets, set explicitly', () => {
  it('are refused in production, each by name, all at once, without echoing a value', () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: 'production', ...PUBLIC_VALUES });
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PLAN_PRICES: is required in production',
      ...Object.keys(PUBLIC_VALUES).map(
        (name) => `${name}: is the public development value (published in the source), refused in production`,
      ),
    ]);
    for (const value of Object.values(PUBLIC_VALUES)) expect((error as Error).message).not.toContain(value);
  });

  it.each(Object.keys(PUBLIC_VALUES))('refuse %s alone in production', (name) => {
    expect(
      problemsOf({
        ...PRODUCTION,
        ...OWN_SECRETS,
        [name]: PUBLIC_VALUES[name as keyof typeof PUBLIC_VALUES],
      }),
    ).toEqual([`${name}: is the public development value (published in the source), refused in production`]);
  });

  it('with NODE_ENV unset, say that unset means production', () => {
    expect(
      problemsOf({
        PLAN_PRICES: PRODUCTION.PLAN_PRICES,
        ...OWN_SECRETS,
        JWT_SECRET: PUBLIC_VALUES.JWT_SECRET,
      }),
    ).toEqual([
      'JWT_SECRET: is the public development value (published in the source), refused in production',
      'NODE_ENV: unset, which means production (development and test use the sandbox secrets)',
    ]);
  });

  it('are refused in development on a listener others reach, as the fallback is', () => {
    expect(
      problemsOf({
        NODE_ENV: 'development',
        HOST: '0.0.0.0',
        ...OWN_SECRETS,
        RAZORPAY_KEY_SECRET: PUBLIC_VALUES.RAZORPAY_KEY_SECRET,
      }),
    ).toEqual([
      'RAZORPAY_KEY_SECRET: is the public development value (published in the source), refused while HOST=0.0.0.0 is not a loopback address',
    ]);
  });

  it('still serve development and test on loopback, and production takes its own', () => {
    expect(loadConfig({ NODE_ENV: 'test', ...PUBLIC_VALUES }).jwtSecret).toBe(PUBLIC_VALUES.JWT_SECRET);
    expect(loadConfig({ ...PRODUCTION, ...OWN_SECRETS }).jwtSecret).toBe(OWN_SECRETS.JWT_SECRET);
  });
});

import { loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

const DEV = { NODE_ENV: 'development' };
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'a-production-jwt-secret-of-32-characters-or-more',
  DISCORD_CLIENT_ID: 'client',
  DISCORD_CLIENT_SECRET: 'client-secret',
  RAZORPAY_KEY_ID: 'rzp_live_key',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  PLAN_PRICES: 'Monthly=199,Yearly=1999',
};
const DISCORD_WEBHOOK = 'https://discord.com/api/webhooks/1234567890/AbC-def_123';

describe("the seller's notices settings", () => {
  it('send nothing by default, 25 a minute once SELLER_DISCORD_WEBHOOK_URL is set', () => {
    expect(loadConfig(DEV).sellerNotices).toEqual({ webhookUrl: null, perMinute: 25 });
    expect(loadConfig({ ...PRODUCTION, SELLER_DISCORD_WEBHOOK_URL: DISCORD_WEBHOOK }).sellerNotices).toEqual({
      webhookUrl: DISCORD_WEBHOOK,
      perMinute: 25,
    });
  });

  it('take any http URL in development, where the sandbox receives the messages', () => {
    const url = 'http://127.0.0.1:4010/discord/api/webhooks/1/sandbox';
    expect(loadConfig({ ...DEV, SELLER_DISCORD_WEBHOOK_URL: url }).sellerNotices.webhookUrl).toBe(url);
    expect(problemsOf({ ...DEV, SELLER_DISCORD_WEBHOOK_URL: 'ftp://example.com/hook' })).toEqual([
      'SELLER_DISCORD_WEBHOOK_URL: must be an http(s) URL',
    ]);
  });

  it("in production, name a URL that is no Discord webhook and a pace past Discord's limit", () => {
    expect(
      problemsOf({
        ...PRODUCTION,
        SELLER_DISCORD_WEBHOOK_URL: 'http://127.0.0.1:4010/discord/api/webhooks/1/sandbox',
        SELLER_NOTICES_PER_MINUTE: '60',
      }),
    ).toEqual([
      "SELLER_DISCORD_WEBHOOK_URL: must be a Discord channel webhook like https://discord.com/api/webhooks/<id>/<token> (the channel's Integrations, Webhooks, Copy Webhook URL)",
      'SELLER_NOTICES_PER_MINUTE: must be at most 30: Discord takes about 30 messages a minute on one webhook',
    ]);
    expect(problemsOf({ ...PRODUCTION, SELLER_NOTICES_PER_MINUTE: '0' })).toEqual([
      'SELLER_NOTICES_PER_MINUTE: Too small: expected number to be >0',
    ]);
  });
});

import { loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

const DEV = { NODE_ENV: 'development' };
const SANDBOX_WEBHOOK = 'http://127.0.0.1:4010/discord/api/webhooks/1/sandbox';

/** The problems production finds in the seller's notices settings (beside its missing secrets). */
const productionProblems = (env: NodeJS.ProcessEnv) =>
  problemsOf({ NODE_ENV: 'production', ...env }).filter((problem) => problem.startsWith('SELLER_'));

describe("the seller's notices settings", () => {
  it('send nothing by default, 25 a minute once SELLER_DISCORD_WEBHOOK_URL is set', () => {
    expect(loadConfig(DEV).sellerNotices).toEqual({ webhookUrl: null, perMinute: 25 });
    expect(loadConfig({ ...DEV, SELLER_DISCORD_WEBHOOK_URL: SANDBOX_WEBHOOK }).sellerNotices).toEqual({
      webhookUrl: SANDBOX_WEBHOOK,
      perMinute: 25,
    });
  });

  it('take any http URL in development, where the sandbox receives the messages', () => {
    expect(problemsOf({ ...DEV, SELLER_DISCORD_WEBHOOK_URL: 'ftp://example.com/hook' })).toEqual([
      'SELLER_DISCORD_WEBHOOK_URL: must be an http(s) URL',
    ]);
  });

  it("in production, take a Discord channel webhook only, and a pace within Discord's limit", () => {
    expect(
      productionProblems({ SELLER_DISCORD_WEBHOOK_URL: SANDBOX_WEBHOOK, SELLER_NOTICES_PER_MINUTE: '60' }),
    ).toEqual([
      "SELLER_DISCORD_WEBHOOK_URL: must be a Discord channel webhook like https://discord.com/api/webhooks/<id>/<token> (the channel's Integrations, Webhooks, Copy Webhook URL)",
      'SELLER_NOTICES_PER_MINUTE: must be at most 30: Discord takes about 30 messages a minute on one webhook',
    ]);
    expect(productionProblems({ SELLER_NOTICES_PER_MINUTE: '0' })).toEqual([
      'SELLER_NOTICES_PER_MINUTE: Too small: expected number to be >0',
    ]);
    expect(
      productionProblems({
        SELLER_DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1234567890/AbC-def_123',
        SELLER_NOTICES_PER_MINUTE: '30',
      }),
    ).toEqual([]);
  });
});

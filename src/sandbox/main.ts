import closeWithGrace from 'close-with-grace';
import { loadConfig, loadDotEnv } from '../core/config';
import { DEMO_ROLE_GUILD, SANDBOX_BOT_TOKEN } from './discord/guilds';
import { DEMO_USER } from './discord/users';
import { startSandbox } from './index';

/** `tsx src/sandbox/main.ts`: the sandbox for `npm run dev`, with the service's own secrets. */
async function main(): Promise<void> {
  loadDotEnv();
  // Unset is production too (fail closed), as for the service.
  if ((process.env.NODE_ENV || 'production') === 'production') {
    console.error(
      'The sandbox fakes Discord and Razorpay: it refuses to start with NODE_ENV=production (or unset); use development or test.',
    );
    process.exit(1);
  }
  const config = loadConfig();
  // Only when the service's Redis is named: the sandbox alone (its tests, a quick look) needs none.
  const withBot =
    Boolean(process.env.REDIS_URL || process.env.EVENTS_STREAM) || config.redis.mode !== 'single';
  const sandbox = await startSandbox({
    port: sandboxPort('SANDBOX_PORT', 4010),
    smtpPort: sandboxPort('SANDBOX_SMTP_PORT', 4025),
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    discord: config.discord,
    razorpay: config.razorpay,
    webhookUrl: process.env.SANDBOX_WEBHOOK_URL || 'http://localhost:3000/api/payment/webhook',
    log: (message) => console.log(message),
    bot: withBot ? { redis: config, stream: config.eventsStream } : undefined,
    subscriptionPlans: config.planPrices,
    plansFile: process.env.SANDBOX_PLANS_FILE || undefined,
  });
  sandbox.discord.autoApprove = false;
  sandbox.discord.guilds.create(DEMO_ROLE_GUILD.id, DEMO_ROLE_GUILD.name, DEMO_ROLE_GUILD.roles);
  sandbox.discord.guilds.join(DEMO_ROLE_GUILD.id, DEMO_USER.id);
  console.log(`Discord and Razorpay sandbox listening on ${sandbox.url}
  DISCORD_API_URL=${sandbox.discordApiUrl}
  DISCORD_AUTHORIZE_URL=${sandbox.discordAuthorizeUrl}
  RAZORPAY_API_URL=${sandbox.razorpayApiUrl}
  checkout page: ${sandbox.razorpayCheckoutUrl}?order_id=…&callback_url=…
  roles: DISCORD_BOT_TOKEN=${SANDBOX_BOT_TOKEN} ROLE_GUILD_ID=${DEMO_ROLE_GUILD.id} TIER_ROLES=${DEMO_ROLE_GUILD.tierRoles}
  the guild's roles: ${sandbox.url}/discord/sandbox/guilds/${DEMO_ROLE_GUILD.id}
  SMTP_URL=${sandbox.smtpUrl} (the SMTP sink)
  the bot's DMs and the mails to buyers: ${sandbox.url}/sandbox/messages`);
  if (withBot)
    console.log(`  bot stand-in reading ${config.eventsStream}: ${sandbox.url}/bot/events?providerId=…`);
  closeWithGrace({ delay: 5_000 }, async ({ err }) => {
    if (err) console.error(err);
    await sandbox.close();
  });
}

function sandboxPort(name: 'SANDBOX_PORT' | 'SANDBOX_SMTP_PORT', fallback: number): number {
  const value = process.env[name];
  if (!value) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`${name}: "${value}" is not a port`);
  return port;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import type { z } from 'zod';
import type { Env } from './fields';

/** A Discord channel webhook: `https://discord.com/api/webhooks/<id>/<token>` (ptb, canary, discordapp too). */
const DISCORD_WEBHOOK =
  /^https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/\d+\/[\w-]+$/;

/** Discord takes about 30 messages a minute on one channel webhook. */
export const DISCORD_WEBHOOK_PER_MINUTE = 30;

/**
 * In production SELLER_DISCORD_WEBHOOK_URL must be a Discord channel webhook and the pace within
 * Discord's; in development and test any http(s) URL, so that the sandbox receives the messages.
 */
type NoticeEnv = Pick<Env, 'NODE_ENV' | 'SELLER_DISCORD_WEBHOOK_URL' | 'SELLER_NOTICES_PER_MINUTE'>;

export function checkSellerNotices<E extends NoticeEnv>(env: E, ctx: z.RefinementCtx<E>): void {
  const url = env.SELLER_DISCORD_WEBHOOK_URL;
  if (url !== undefined && !/^https?:\/\//.test(url))
    ctx.addIssue({ code: 'custom', path: ['SELLER_DISCORD_WEBHOOK_URL'], message: 'must be an http(s) URL' });
  if (env.NODE_ENV !== 'production') return;
  if (url !== undefined && !DISCORD_WEBHOOK.test(url))
    ctx.addIssue({
      code: 'custom',
      path: ['SELLER_DISCORD_WEBHOOK_URL'],
      message:
        "must be a Discord channel webhook like https://discord.com/api/webhooks/<id>/<token> (the channel's Integrations, Webhooks, Copy Webhook URL)",
    });
  if (env.SELLER_NOTICES_PER_MINUTE > DISCORD_WEBHOOK_PER_MINUTE)
    ctx.addIssue({
      code: 'custom',
      path: ['SELLER_NOTICES_PER_MINUTE'],
      message: `must be at most ${DISCORD_WEBHOOK_PER_MINUTE}: Discord takes about ${DISCORD_WEBHOOK_PER_MINUTE} messages a minute on one webhook`,
    });
}

import { messageOf, NOTICE_JOB, type SellerNotice } from '../../core/seller-notices';
import type { JobBackoff } from '../../core/jobs';
import type { JobHandler } from '../queue/handler';
import { jobOutcomeOf, postToDiscord } from '../discord-post';

const UNSET = 'SELLER_DISCORD_WEBHOOK_URL is not set';

export interface NoticeHandlerOptions {
  /**
   * SELLER_DISCORD_WEBHOOK_URL as the settings say now (docs/settings.md): set or changed in the console,
   * it is used without a restart; unset, the notices wait.
   */
  webhookUrl: () => Promise<string | null>;
  /** SELLER_NOTICES_PER_MINUTE: the sends are spaced evenly, across worker replicas too. */
  perMinute: number;
  /** How long one send may take. */
  timeoutMs: number;
  /** Failed tries (5xx, no answer) after which a notice is given up, kept dead for an operator. */
  maxAttempts?: number;
  /** The wait before a failed notice's next try. */
  backoff?: JobBackoff;
}

/**
 * Sends the seller's notices to their Discord channel from the work queue, at least once: a notice is
 * done only after Discord's 2xx. A 429 waits Discord's `retry_after` (the whole lane waits: the limit is
 * the webhook's) and costs the notice no try; a 5xx or no answer is tried again after the queue's
 * backoff, up to `maxAttempts`; any other 4xx gives the notice up at once. Given-up notices stay, dead
 * (`premium notices list --failed`, `premium jobs dead`).
 */
export function noticeHandler({
  webhookUrl,
  perMinute,
  timeoutMs,
  maxAttempts = 10,
  backoff = { firstMs: 5000, maxMs: 15 * 60_000 },
}: NoticeHandlerOptions): JobHandler<SellerNotice> {
  return {
    kind: NOTICE_JOB,
    maxAttempts,
    backoff,
    leaseMs: timeoutMs + 60_000,
    spacingMs: Math.ceil(60_000 / perMinute),
    ready: async () => (await webhookUrl()) !== null,
    async run(notice) {
      const url = await webhookUrl();
      // Unset between the claim and now: the notice waits for the next one, at no cost of a try.
      if (url === null) return { retry: { inMs: 60_000, error: UNSET, counts: false } };
      return jobOutcomeOf(await postToDiscord(url, messageOf(notice), { timeoutMs }));
    },
  };
}

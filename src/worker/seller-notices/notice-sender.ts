import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import {
  claimDueNotice,
  markNoticeDead,
  markNoticeRetry,
  markNoticeSent,
  messageOf,
  type ClaimedNotice,
} from '../../core/seller-notices';
import { Backoff, jitteredDelay, type BackoffPolicy } from '../relay/backoff';
import { sleep } from '../relay/sleep';
import { postToWebhook } from './discord-webhook';

export interface NoticeSenderOptions {
  sequelize: Sequelize;
  /** SELLER_DISCORD_WEBHOOK_URL. */
  webhookUrl: string;
  /** SELLER_NOTICES_PER_MINUTE: the sends are spaced evenly, across worker replicas too. */
  perMinute: number;
  /** How long one send may take. */
  timeoutMs: number;
  logger: Logger;
  /** How often to look when nothing is due. */
  pollMs?: number;
  /** Failed tries (5xx, no answer) after which a notice is given up, kept dead for an operator. */
  maxAttempts?: number;
  /** The wait before a failed notice's next try. */
  retry?: BackoffPolicy;
}

const DEFAULTS = { pollMs: 1000, maxAttempts: 10, retry: { baseMs: 5000, maxMs: 15 * 60_000 } };

/**
 * Sends the seller's notices to their Discord channel, oldest due first, at least once: a notice is
 * marked sent only after Discord's 2xx, and a claim a crashed sender held runs out and is sent again.
 * A 429 waits Discord's `retry_after` (the whole sender waits: the limit is the webhook's) and costs the
 * notice no try; a 5xx or no answer is tried again after a growing wait, up to `maxAttempts`; any other
 * 4xx gives the notice up at once. Given-up notices stay, dead (`premium notices list --failed`).
 */
export class NoticeSender {
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private readonly spacingMs: number;
  private readonly settings: typeof DEFAULTS;
  /** Failures of the database itself, not of one notice. */
  private readonly databaseBackoff = new Backoff({ baseMs: 1000, maxMs: 30_000 });

  constructor(private readonly options: NoticeSenderOptions) {
    this.spacingMs = Math.ceil(60_000 / options.perMinute);
    this.settings = { ...DEFAULTS, ...options };
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      const waitMs = await this.sendNext().catch((error: unknown) => {
        this.options.logger.error({ err: error }, 'seller notices: the database failed; trying again');
        return this.databaseBackoff.next();
      });
      await sleep(waitMs, signal);
    }
  }

  /** Sends the next due notice, if any; answers how long to wait before the next. */
  private async sendNext(): Promise<number> {
    const { sequelize } = this.options;
    const claimed = await claimDueNotice(sequelize, {
      leaseMs: this.options.timeoutMs + 60_000,
      spacingMs: this.spacingMs,
    });
    this.databaseBackoff.reset();
    if (!claimed) return this.settings.pollMs;
    const answer = await postToWebhook(
      this.options.webhookUrl,
      messageOf(claimed.notice),
      this.options.timeoutMs,
    );
    switch (answer.outcome) {
      case 'sent':
        await markNoticeSent(sequelize, claimed.id);
        return this.spacingMs;
      case 'limited':
        await markNoticeRetry(sequelize, claimed.id, {
          delayMs: answer.retryAfterMs,
          error: `429: retry after ${answer.retryAfterMs} ms`,
          counts: false,
        });
        return Math.max(answer.retryAfterMs, this.spacingMs);
      case 'failed':
        await this.failed(claimed, answer.error);
        return this.spacingMs;
      case 'refused':
        await this.giveUp(claimed, answer.error);
        return this.spacingMs;
    }
  }

  private async failed(claimed: ClaimedNotice, error: string): Promise<void> {
    if (claimed.attempts + 1 >= this.settings.maxAttempts) return this.giveUp(claimed, error);
    const delayMs = jitteredDelay(claimed.attempts, this.settings.retry);
    this.options.logger.warn(
      { notice: claimed.id, attempts: claimed.attempts + 1, error },
      'seller notice not sent; trying again',
    );
    await markNoticeRetry(this.options.sequelize, claimed.id, { delayMs, error, counts: true });
  }

  private async giveUp(claimed: ClaimedNotice, error: string): Promise<void> {
    this.options.logger.error(
      { notice: claimed.id, error },
      'seller notice given up: premium notices list --failed',
    );
    await markNoticeDead(this.options.sequelize, claimed.id, error);
  }
}

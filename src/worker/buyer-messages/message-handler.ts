import type { Sequelize } from 'sequelize';
import {
  emailOfBuyer,
  MESSAGE_JOB,
  messageText,
  optedOut,
  queueMessageEmail,
  type BuyerMessage,
  type MessageSettings,
} from '../../core/buyer-messages';
import type { JobBackoff } from '../../core/jobs';
import type { JobHandler } from '../queue/handler';
import { jobOutcomeOf } from '../discord-post';
import { sendDirectMessage } from './discord-dm';

const NO_TOKEN = 'DISCORD_BOT_TOKEN is not set';

export interface MessageHandlerOptions {
  sequelize: Sequelize;
  /** DISCORD_API_URL. */
  apiUrl: string;
  /** DISCORD_BOT_TOKEN: the seller's bot sends the DMs; unset, the messages wait. */
  botToken: string | null;
  /** FRONTEND_URL: the store, where the buyer finds the invoice. */
  storeUrl: string;
  /** The seller's texts and win-back offer, as the settings say now. */
  settings: () => Promise<MessageSettings>;
  /** Whether SMTP_URL is set: a buyer who gave an address then gets each message by email too. */
  emailOn: boolean;
  /** How long one request to Discord may take. */
  timeoutMs: number;
  maxAttempts?: number;
  backoff?: JobBackoff;
}

/**
 * Sends the buyer's messages by Discord DM from the work queue, at least once: done after Discord took
 * it, or at once when the buyer turned the kind off. A 429 waits Discord's `retry_after` at no cost of a
 * try; a 5xx or no answer is tried again after the queue's backoff; 50007 (DMs closed) or any other 4xx
 * gives the message up at once, kept dead with Discord's answer (`premium messages list`), unless the
 * buyer gave an address: with SMTP_URL set, a message Discord took or refused for good is queued as an
 * email (`buyer_email`), which carries it to the buyer whose DMs are closed.
 */
export function messageHandler({
  sequelize,
  apiUrl,
  botToken,
  storeUrl,
  settings,
  emailOn,
  timeoutMs,
  maxAttempts = 10,
  backoff = { firstMs: 5000, maxMs: 15 * 60_000 },
}: MessageHandlerOptions): JobHandler<BuyerMessage> {
  return {
    kind: MESSAGE_JOB,
    maxAttempts,
    backoff,
    leaseMs: 2 * timeoutMs + 60_000,
    ready: async () => botToken !== null,
    async run(message, { id }) {
      if (botToken === null) return { retry: { inMs: 60_000, error: NO_TOKEN, counts: false } };
      if (await optedOut(sequelize, message.to, message.kind)) return;
      const content = messageText(message, await settings(), storeUrl);
      const answer = await sendDirectMessage(apiUrl, botToken, message.to, content, timeoutMs);
      if (emailOn && (answer.outcome === 'sent' || answer.outcome === 'refused')) {
        const email = await emailOfBuyer(sequelize, message.to);
        if (email !== null) {
          await queueMessageEmail(sequelize, message, email, id);
          return;
        }
      }
      return jobOutcomeOf(answer);
    },
  };
}

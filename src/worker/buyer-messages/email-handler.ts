import type { Sequelize } from 'sequelize';
import {
  EMAIL_JOB,
  emailSubject,
  messageText,
  optedOut,
  type MessageEmail,
  type MessageSettings,
} from '../../core/buyer-messages';
import type { JobBackoff } from '../../core/jobs';
import type { JobHandler } from '../queue/handler';
import type { SmtpMailer } from './smtp-mailer';

export interface EmailHandlerOptions {
  sequelize: Sequelize;
  mailer: SmtpMailer;
  /** SMTP_FROM. */
  from: string;
  /** FRONTEND_URL. */
  storeUrl: string;
  settings: () => Promise<MessageSettings>;
  /** How long one mail may take: a lease covers a run of it. */
  timeoutMs: number;
  maxAttempts?: number;
  backoff?: JobBackoff;
}

/**
 * Sends a message's email (the same text as the DM, the store's name in the subject), at least once: done
 * once the SMTP server took it, or at once when the buyer turned the kind off since. No answer or a 4xx is
 * tried again after the queue's backoff (dead after 10 tries); a 5xx to the address gives it up at once,
 * kept dead with the server's answer.
 */
export function emailHandler({
  sequelize,
  mailer,
  from,
  storeUrl,
  settings,
  timeoutMs,
  maxAttempts = 10,
  backoff = { firstMs: 5000, maxMs: 15 * 60_000 },
}: EmailHandlerOptions): JobHandler<MessageEmail> {
  return {
    kind: EMAIL_JOB,
    maxAttempts,
    backoff,
    leaseMs: 4 * timeoutMs + 60_000,
    async run(message) {
      if (await optedOut(sequelize, message.to, message.kind)) return;
      const current = await settings();
      const answer = await mailer.send({
        from,
        fromName: current.storeName,
        to: message.email,
        subject: emailSubject(message.kind, current.storeName),
        text: messageText(message, current, storeUrl),
      });
      if (answer.outcome === 'failed') throw new Error(answer.error);
      if (answer.outcome === 'refused') return { dead: answer.error };
    },
  };
}

import pino from 'pino';
import { QueryTypes } from 'sequelize';
import type { User } from '../../src/core/models';
import { readMessageSettings } from '../../src/core/settings';
import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { emailHandler } from '../../src/worker/buyer-messages/email-handler';
import { messageHandler } from '../../src/worker/buyer-messages/message-handler';
import { SmtpMailer } from '../../src/worker/buyer-messages/smtp-mailer';
import type { JobHandler } from '../../src/worker/queue/handler';
import { JobWorker } from '../../src/worker/queue/job-worker';
import type { PaymentsTestApp } from './payments-app';
import { pollUntil } from './wait';

const logger = pino({ level: 'silent' });

/** The store's address the test senders use: `{link}` is its `/dashboard`. */
export const STORE_URL = 'https://shop.example/store';

async function waiting(app: PaymentsTestApp): Promise<number> {
  const [row] = await app.core.sequelize.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM jobs WHERE kind IN ('buyer_message', 'buyer_email') AND state IN ('queued', 'running')",
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

/** Runs the worker's senders against the sandbox's Discord and SMTP sink until no buyer message waits. */
export async function sendAllMessages(app: PaymentsTestApp): Promise<void> {
  const settings = () => readMessageSettings(app.core);
  const mailer = new SmtpMailer(app.sandbox.smtpUrl, 5000);
  const backoff = { firstMs: 50, maxMs: 200 };
  const dms = messageHandler({
    sequelize: app.core.sequelize,
    apiUrl: app.sandbox.discordApiUrl,
    botToken: SANDBOX_BOT_TOKEN,
    storeUrl: STORE_URL,
    settings,
    emailOn: true,
    timeoutMs: 5000,
    backoff,
  });
  const emails = emailHandler({
    sequelize: app.core.sequelize,
    mailer,
    from: 'billing@shop.example',
    storeUrl: STORE_URL,
    settings,
    timeoutMs: 5000,
    backoff,
  });
  const handlers = [dms, emails] as JobHandler<never>[];
  const sender = new JobWorker({ sequelize: app.core.sequelize, handlers, logger, pollMs: 20 });
  sender.start();
  try {
    await pollUntil('every message handled', async () => (await waiting(app)) === 0);
  } finally {
    await sender.stop();
    mailer.close();
  }
}

/** The DMs `user` got in the sandbox, in order. */
export const dmsTo = (app: PaymentsTestApp, user: User): string[] =>
  app.sandbox.discord
    .directMessages()
    .filter((dm) => dm.userId === user.providerId)
    .map((dm) => dm.content);

/** The buyer messages queued for `user`, in order, as `premium messages list` would show them. */
export function messagesTo(app: PaymentsTestApp, user: User) {
  return app.core.sequelize.query<{
    kind: string;
    state: string;
    attempts: number;
    last_error: string | null;
  }>(
    `SELECT payload->>'kind' AS kind, state, attempts, last_error FROM jobs
     WHERE kind = 'buyer_message' AND payload->>'to' = $1 ORDER BY id`,
    { bind: [user.providerId], type: QueryTypes.SELECT },
  );
}

/** The mails to `address` the sandbox's SMTP sink took, in order: subject and text. */
export const mailsTo = (app: PaymentsTestApp, address: string) =>
  app.sandbox.mail
    .mails()
    .filter((mail) => mail.to.includes(address))
    .map(({ subject, text }) => ({ subject, text }));

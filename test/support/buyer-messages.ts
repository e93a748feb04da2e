import pino from 'pino';
import { QueryTypes } from 'sequelize';
import type { User } from '../../src/core/models';
import { readMessageSettings } from '../../src/core/settings';
import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { messageHandler } from '../../src/worker/buyer-messages/message-handler';
import { JobWorker } from '../../src/worker/queue/job-worker';
import type { PaymentsTestApp } from './payments-app';
import { pollUntil } from './wait';

const logger = pino({ level: 'silent' });

/** The store's address the test senders use: `{link}` is its `/dashboard`. */
export const STORE_URL = 'https://shop.example/store';

async function waiting(app: PaymentsTestApp): Promise<number> {
  const [row] = await app.core.sequelize.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM jobs WHERE kind = 'buyer_message' AND state IN ('queued', 'running')",
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

/** Runs the worker's sender against the sandbox's Discord until no buyer message waits. */
export async function sendAllMessages(app: PaymentsTestApp): Promise<void> {
  const handler = messageHandler({
    sequelize: app.core.sequelize,
    apiUrl: app.sandbox.discordApiUrl,
    botToken: SANDBOX_BOT_TOKEN,
    storeUrl: STORE_URL,
    settings: () => readMessageSettings(app.core),
    timeoutMs: 5000,
    backoff: { firstMs: 50, maxMs: 200 },
  });
  const sender = new JobWorker({ sequelize: app.core.sequelize, handlers: [handler], logger, pollMs: 20 });
  sender.start();
  try {
    await pollUntil('every message handled', async () => (await waiting(app)) === 0);
  } finally {
    await sender.stop();
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

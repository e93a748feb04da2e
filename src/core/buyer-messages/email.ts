import type { Sequelize } from 'sequelize';
import { selectRows, withTransaction, type Runner } from '../db/database';
import { AppError } from '../errors';
import { enqueue } from '../jobs';
import { EMAIL_JOB, EMAIL_OF_BUYER, EMAIL_OF_USER } from './sql';
import type { BuyerMessage, MessageKind } from './types';

/** A message's email: the message, and where it goes. */
export type MessageEmail = BuyerMessage & { email: string };

const MAX_EMAIL_LENGTH = 254;
// One @, something on each side, a dot in the domain and no spaces: the SMTP server judges the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The address as stored (trimmed; null or empty: none), or 400 EMAIL_INVALID. Nothing is changed then.
 */
export function checkedEmail(value: string | null): string | null {
  const email = value?.trim() ?? '';
  if (email === '') return null;
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
    throw AppError.validation('EMAIL_INVALID', 'email must be an address like name@example.com', [
      { field: 'email', message: `an address like name@example.com, at most ${MAX_EMAIL_LENGTH} characters` },
    ]);
  }
  return email;
}

/** The address user `userId` (users.id) gave for the messages, or null. */
export async function buyerEmail(runner: Runner, userId: number): Promise<string | null> {
  const [row] = await selectRows<{ email: string | null }>(runner, EMAIL_OF_USER, [userId]);
  return row?.email ?? null;
}

/** The address the buyer of Discord id `providerId` gave for the messages, or null. */
export async function emailOfBuyer(runner: Runner, providerId: string): Promise<string | null> {
  const [row] = await selectRows<{ email: string | null }>(runner, EMAIL_OF_BUYER, [providerId]);
  return row?.email ?? null;
}

/**
 * Queues the email of the message of job `messageJobId` to `email`: once per message job while it waits
 * (a message sent again by an operator's retry is mailed again).
 */
export async function queueMessageEmail(
  sequelize: Sequelize,
  message: BuyerMessage,
  email: string,
  messageJobId: number,
): Promise<void> {
  const payload: MessageEmail = { ...message, email };
  await withTransaction(sequelize, undefined, (transaction) =>
    enqueue(EMAIL_JOB, payload, { dedupeKey: `email:${messageJobId}` }, transaction),
  );
}

const SUBJECTS: Record<MessageKind, string> = {
  receipt: 'Your receipt',
  refund: 'Your refund',
  renewal_upcoming: 'Your subscription renews soon',
  charge_failed: 'We could not charge your subscription',
  trial_ending: 'Your free trial ends soon',
  expiring: 'Your premium ends soon',
  lapsed: 'Your premium has ended',
};

/** An email's subject: the store's name (STORE_NAME) and what the message is. */
export function emailSubject(kind: MessageKind, storeName: string): string {
  return `${storeName}: ${SUBJECTS[kind]}`;
}

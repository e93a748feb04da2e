import type { Sequelize } from 'sequelize';
import { execute, selectRows, withTransaction, type Runner } from '../db/database';
import { AppError } from '../errors';
import { checkedEmail } from './email';
import { OPT_IN, OPT_OUT, OPTED_OUT, OPTED_OUT_KINDS, SET_EMAIL } from './sql';
import { MESSAGE_KINDS, REQUIRED_KINDS, type MessageKind } from './types';

export type MessageChoices = Record<MessageKind, boolean>;

const isKind = (kind: string): kind is MessageKind => (MESSAGE_KINDS as readonly string[]).includes(kind);

/** Which kinds user `userId` (users.id) gets: all but those they turned off. */
export async function messageChoices(runner: Runner, userId: number): Promise<MessageChoices> {
  const off = new Set(
    (await selectRows<{ kind: string }>(runner, OPTED_OUT_KINDS, [userId])).map((r) => r.kind),
  );
  return Object.fromEntries(MESSAGE_KINDS.map((kind) => [kind, !off.has(kind)])) as MessageChoices;
}

/**
 * Turns kinds on or off for a user, and sets the address their messages are also emailed to when
 * `email` is given (null or empty: none). An unknown kind is 400 UNKNOWN_MESSAGE, a kind that stays on
 * (receipts, pre-debit notices) turned off 400 REQUIRED_MESSAGE, a bad address 400 EMAIL_INVALID;
 * either way nothing is changed.
 */
export async function changeMessageChoices(
  sequelize: Sequelize,
  userId: number,
  changes: Record<string, boolean>,
  email?: string | null,
): Promise<MessageChoices> {
  const unknown = Object.keys(changes).filter((kind) => !isKind(kind));
  if (unknown.length > 0) {
    throw AppError.validation(
      'UNKNOWN_MESSAGE',
      `no message kind ${unknown.join(', ')} (kinds: ${MESSAGE_KINDS.join(', ')})`,
      unknown.map((field) => ({ field, message: 'not a message kind' })),
    );
  }
  const required = REQUIRED_KINDS.filter((kind) => changes[kind] === false);
  if (required.length > 0) {
    throw AppError.validation(
      'REQUIRED_MESSAGE',
      `${required.join(', ')} cannot be turned off: every payment is confirmed, and every debit announced, to the buyer`,
      required.map((field) => ({ field, message: 'stays on' })),
    );
  }
  const address = email === undefined ? undefined : checkedEmail(email);
  const kinds = (on: boolean) => Object.keys(changes).filter((kind) => changes[kind] === on);
  return withTransaction(sequelize, undefined, async (transaction) => {
    if (address !== undefined) await execute(transaction, SET_EMAIL, [userId, address]);
    await execute(transaction, OPT_OUT, [userId, kinds(false)]);
    await execute(transaction, OPT_IN, [userId, kinds(true)]);
    return messageChoices(transaction, userId);
  });
}

/** Whether the buyer of Discord id `providerId` turned `kind` off (asked when the message is sent). */
export async function optedOut(runner: Runner, providerId: string, kind: MessageKind): Promise<boolean> {
  return (await selectRows(runner, OPTED_OUT, [providerId, kind])).length > 0;
}

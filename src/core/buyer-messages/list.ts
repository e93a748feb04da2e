import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { JobState } from '../jobs';
import { EMAIL_JOB, LIST_MESSAGES, MESSAGE_JOB } from './sql';
import type { BuyerMessage, MessageKind } from './types';

/** A message to a buyer as support sees it (`premium messages list`). */
export interface MessageRow {
  id: number;
  kind: MessageKind;
  /** By Discord DM, or its email (queued once the DM was sent or refused, when the buyer gave an address). */
  channel: 'discord' | 'email';
  /** The buyer's Discord id. */
  to: string;
  reference: string;
  /** queued or running: to be sent; done: sent (or skipped: the buyer turned the kind off); dead: given up. */
  state: JobState;
  attempts: number;
  /** Why it failed last (`50007 Cannot send messages to this user`: the buyer closed their DMs). */
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** The latest `limit` messages and emails, newest first; only those to the buyer of Discord id `user`, of `kind`, when given. */
export async function listMessages(
  sequelize: Sequelize,
  { user, kind, limit }: { user?: string; kind?: MessageKind; limit: number },
): Promise<MessageRow[]> {
  const rows = await selectRows<{
    id: string;
    job: string;
    state: JobState;
    payload: BuyerMessage;
    attempts: number;
    lastError: string | null;
    createdAt: Date;
    finishedAt: Date | null;
  }>(sequelize, LIST_MESSAGES, [[MESSAGE_JOB, EMAIL_JOB], limit, user ?? null, kind ?? null]);
  return rows.map(({ id, job, payload, ...row }) => ({
    id: Number(id),
    kind: payload.kind,
    channel: job === EMAIL_JOB ? ('email' as const) : ('discord' as const),
    to: payload.to,
    reference: payload.reference,
    ...row,
  }));
}

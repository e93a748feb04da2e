import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { JobState } from '../jobs';
import { LIST_MESSAGES, MESSAGE_JOB } from './sql';
import type { BuyerMessage, MessageKind } from './types';

/** A message to a buyer as support sees it (`premium messages list`). */
export interface MessageRow {
  id: number;
  kind: MessageKind;
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

/** The latest `limit` messages, newest first; only those to the buyer of Discord id `user` when given. */
export async function listMessages(
  sequelize: Sequelize,
  { user, limit }: { user?: string; limit: number },
): Promise<MessageRow[]> {
  const rows = await selectRows<{
    id: string;
    state: JobState;
    payload: BuyerMessage;
    attempts: number;
    lastError: string | null;
    createdAt: Date;
    finishedAt: Date | null;
  }>(sequelize, LIST_MESSAGES, [MESSAGE_JOB, limit, user ?? null]);
  return rows.map(({ id, payload, ...row }) => ({
    id: Number(id),
    kind: payload.kind,
    to: payload.to,
    reference: payload.reference,
    ...row,
  }));
}

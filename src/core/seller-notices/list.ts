import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { messageOf } from './message';
import { COUNT_NOTICES, LIST_NOTICES, RETRY_NOTICE } from './sql';
import type { NoticeKind, SellerNotice } from './types';

/** A notice as operators see it (`premium notices list`). */
export interface NoticeRow {
  id: number;
  kind: NoticeKind;
  /** The message as it is (or was) sent. */
  message: string;
  createdAt: Date;
  dueAt: Date;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  /** Given up after too many failures, or refused by Discord. */
  deadAt: Date | null;
}

type StoredRow = Omit<NoticeRow, 'message'> & { id: string; payload: object };

function rowOf({ payload, ...row }: StoredRow): NoticeRow {
  const notice = { ...payload, kind: row.kind } as SellerNotice;
  return { ...row, id: Number(row.id), message: messageOf(notice).content };
}

/** The latest `limit` notices, newest first; `failed`: only those not sent that failed at least once. */
export async function listNotices(
  sequelize: Sequelize,
  { failed, limit }: { failed: boolean; limit: number },
): Promise<NoticeRow[]> {
  const rows = await selectRows<StoredRow>(sequelize, LIST_NOTICES, [failed, limit]);
  return rows.map(rowOf);
}

/** Sends a notice not sent (a dead one included) again now, its tries forgotten. */
export async function retryNotice(sequelize: Sequelize, id: number): Promise<NoticeRow> {
  const [row] = await selectRows<StoredRow>(sequelize, RETRY_NOTICE, [id]);
  if (!row)
    throw AppError.notFound('NOTICE_NOT_FOUND', `no notice ${id} waiting to be sent (sent already, or none)`);
  return rowOf(row);
}

/** How many notices wait to be sent, and how many were given up (the worker's metrics). */
export async function countNotices(sequelize: Sequelize): Promise<{ waiting: number; dead: number }> {
  const [row] = await selectRows<{ waiting: number; dead: number }>(sequelize, COUNT_NOTICES);
  return row!;
}

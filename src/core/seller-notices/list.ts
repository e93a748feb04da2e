import type { Sequelize } from 'sequelize';
import { AppError, isAppError } from '../errors';
import { countJobs, listJobs, retryJob, type JobRow } from '../jobs';
import { messageOf } from './message';
import { NOTICE_JOB } from './sql';
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

function rowOf(job: JobRow): NoticeRow {
  const notice = job.payload as unknown as SellerNotice;
  return {
    id: job.id,
    kind: notice.kind,
    message: messageOf(notice).content,
    createdAt: job.createdAt,
    dueAt: job.runAt,
    attempts: job.attempts,
    lastError: job.lastError,
    sentAt: job.state === 'done' ? job.finishedAt : null,
    deadAt: job.state === 'dead' ? job.finishedAt : null,
  };
}

/** The latest `limit` notices, newest first; `failed`: only those not sent that failed at least once. */
export async function listNotices(
  sequelize: Sequelize,
  { failed, limit }: { failed: boolean; limit: number },
): Promise<NoticeRow[]> {
  const jobs = await listJobs(sequelize, { kind: NOTICE_JOB, failing: failed, limit });
  return jobs.map(rowOf);
}

/** Sends a notice not sent (a dead one included) again now, its tries forgotten. */
export async function retryNotice(sequelize: Sequelize, id: number): Promise<NoticeRow> {
  try {
    return rowOf(await retryJob(sequelize, id, NOTICE_JOB));
  } catch (error) {
    if (!isAppError(error) || error.code !== 'JOB_NOT_FOUND') throw error;
    throw AppError.notFound('NOTICE_NOT_FOUND', `no notice ${id} waiting to be sent (sent already, or none)`);
  }
}

/** How many notices wait to be sent, and how many were given up (the worker's metrics). */
export function countNotices(sequelize: Sequelize): Promise<{ waiting: number; dead: number }> {
  return countJobs(sequelize, NOTICE_JOB);
}

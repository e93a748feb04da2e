import type { Transaction } from 'sequelize';
import type { PlainQuery } from '../db/plain-query';
import { enqueue, enqueueStatement, type QueuedJob } from '../jobs';
import { NOTICE_JOB } from './sql';
import type { NoticeBuyer, NoticePurchase, SellerNotice } from './types';

/** The buyer's Discord id and name alone, out of a user row that holds more. */
export function noticeBuyer({ providerId, username }: NoticeBuyer): NoticeBuyer {
  return { providerId, username };
}

/** The purchase's facts alone, out of an order or a subscription that holds more of the buyer's. */
export function noticePurchase({
  tier,
  planType,
  durationDays,
  category,
  guildId,
  guildName = null,
  gift = false,
}: NoticePurchase): NoticePurchase {
  return { tier, planType, durationDays, category, guildId, guildName, ...(gift && { gift }) };
}

/**
 * Queues a notice for the seller's Discord channel in the caller's transaction, the one that makes the
 * change it tells of: it is sent (by the worker) if and only if the change commits.
 */
export async function recordNotice(transaction: Transaction, notice: SellerNotice): Promise<void> {
  await enqueue(NOTICE_JOB, notice, {}, transaction);
}

/** The statement that queues `notice` in a plain transaction (the paid-and-grant one's). */
export function noticeStatement(notice: SellerNotice): PlainQuery {
  return enqueueStatement(NOTICE_JOB, notice);
}

/** The job of `notice`, for a statement that queues it beside others (enqueueWhereStatement). */
export function noticeJob(notice: SellerNotice): QueuedJob {
  return { kind: NOTICE_JOB, payload: notice };
}

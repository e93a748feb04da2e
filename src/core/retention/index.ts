import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { MESSAGE_JOB } from '../buyer-messages';
import { NOTICE_JOB } from '../seller-notices';
import {
  deleteCodeAttemptFailuresBefore,
  deleteDeadOutboxRowsBefore,
  deleteFinishedJobsBefore,
  deleteWaitingJobsBefore,
  deleteJobRunsBefore,
  deleteWebhookAttemptsBefore,
  deleteWebhookDeliveriesBefore,
  deleteWebhookIdsBefore,
} from './sql';

/** Razorpay retries a webhook for 24 hours; a week of ids still catches every replay. */
const WEBHOOK_IDS_KEPT = '7 days';
/** Long enough for an operator to inspect, fix and re-queue a dead event. */
const DEAD_OUTBOX_ROWS_KEPT = '30 days';
/** A month of scheduled runs, to look back at when a job seems to have stopped. */
const JOB_RUNS_KEPT = '30 days';
/** Failed code attempts count for an hour (ATTEMPT_LIMITS); a day of them still helps support. */
const CODE_ATTEMPT_FAILURES_KEPT = '1 day';
/**
 * The work queue's jobs, done or given up: a month, for an operator asking what the seller's channel was
 * told or which role syncs failed.
 */
const FINISHED_JOBS_KEPT = '30 days';
/**
 * Without SELLER_DISCORD_WEBHOOK_URL nothing sends the notices: a day of them is kept, so a URL set later
 * tells of the last day, not of months of sales at once.
 */
const UNSENT_NOTICES_KEPT = '1 day';
/**
 * Every try of a webhook to the seller's systems, and the mark that an event was queued for an endpoint:
 * a month, as the jobs they go with (a delivery is given up after 3 days, so none is still trying).
 */
const WEBHOOK_DELIVERIES_KEPT = '30 days';
/** Without DISCORD_BOT_TOKEN nothing sends the buyers' DMs: likewise, a day of them is kept. */
const UNSENT_MESSAGES_KEPT = '1 day';

async function countDeleted(transaction: Transaction, statement: string): Promise<number> {
  const [row] = await selectRows<{ count: number }>(transaction, statement);
  return row?.count ?? 0;
}

/**
 * Deletes what is no longer needed: old webhook ids, long-dead outbox rows, old job runs, old failed
 * code attempts, the work queue's old finished jobs, old webhook deliveries' tries and marks, and seller
 * notices and buyer messages not sent (`sellerNotices`, `buyerMessages`: whether the worker sends them;
 * if not, those waiting go after a day). Returns the counts.
 */
export async function removeExpiredBookkeeping(
  transaction: Transaction,
  { sellerNotices, buyerMessages }: { sellerNotices: boolean; buyerMessages: boolean },
): Promise<{
  webhookIds: number;
  deadRows: number;
  jobRuns: number;
  codeAttemptFailures: number;
  finishedJobs: number;
  webhookAttempts: number;
  webhookDeliveries: number;
  sellerNotices: number;
  buyerMessages: number;
}> {
  return {
    finishedJobs: await countDeleted(transaction, deleteFinishedJobsBefore(FINISHED_JOBS_KEPT)),
    sellerNotices: sellerNotices
      ? 0
      : await countDeleted(transaction, deleteWaitingJobsBefore(NOTICE_JOB, UNSENT_NOTICES_KEPT)),
    buyerMessages: buyerMessages
      ? 0
      : await countDeleted(transaction, deleteWaitingJobsBefore(MESSAGE_JOB, UNSENT_MESSAGES_KEPT)),
    webhookIds: await countDeleted(transaction, deleteWebhookIdsBefore(WEBHOOK_IDS_KEPT)),
    deadRows: await countDeleted(transaction, deleteDeadOutboxRowsBefore(DEAD_OUTBOX_ROWS_KEPT)),
    jobRuns: await countDeleted(transaction, deleteJobRunsBefore(JOB_RUNS_KEPT)),
    codeAttemptFailures: await countDeleted(
      transaction,
      deleteCodeAttemptFailuresBefore(CODE_ATTEMPT_FAILURES_KEPT),
    ),
    webhookAttempts: await countDeleted(transaction, deleteWebhookAttemptsBefore(WEBHOOK_DELIVERIES_KEPT)),
    webhookDeliveries: await countDeleted(
      transaction,
      deleteWebhookDeliveriesBefore(WEBHOOK_DELIVERIES_KEPT),
    ),
  };
}

import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
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
 * A job of a kind nothing runs now (its setting unset) is kept a day, so that a setting made later tells
 * of the last day, not of months of sales at once; role syncs of that day are redone by the drift sync.
 */
const UNSENT_JOBS_KEPT = '1 day';
/**
 * Every try of a webhook to the seller's systems, and the mark that an event was queued for an endpoint:
 * a month, as the jobs they go with (a delivery is given up after 3 days, so none is still trying).
 */
const WEBHOOK_DELIVERIES_KEPT = '30 days';

async function countDeleted(
  transaction: Transaction,
  statement: string,
  bind: unknown[] = [],
): Promise<number> {
  const [row] = await selectRows<{ count: number }>(transaction, statement, bind);
  return row?.count ?? 0;
}

/**
 * Deletes what is no longer needed: old webhook ids, long-dead outbox rows, old job runs, old failed
 * code attempts, the work queue's old finished jobs, old webhook deliveries' tries and marks, and the
 * jobs of `idleKinds` (kinds nothing runs now) waiting past a day. Returns the counts.
 */
export async function removeExpiredBookkeeping(
  transaction: Transaction,
  { idleKinds }: { idleKinds: string[] },
): Promise<{
  webhookIds: number;
  deadRows: number;
  jobRuns: number;
  codeAttemptFailures: number;
  finishedJobs: number;
  webhookAttempts: number;
  webhookDeliveries: number;
  unsentJobs: number;
}> {
  return {
    finishedJobs: await countDeleted(transaction, deleteFinishedJobsBefore(FINISHED_JOBS_KEPT)),
    unsentJobs:
      idleKinds.length === 0
        ? 0
        : await countDeleted(transaction, deleteWaitingJobsBefore(UNSENT_JOBS_KEPT), [idleKinds]),
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

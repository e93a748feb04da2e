import type { Logger } from 'pino';
import { razorpayClientFor } from '../../core/payments/processor';
import { RECONCILE_LOOKBACK_MS, reconcileOrders } from '../../core/reconcile/orders';
import type { ReconcileProgress, ReconcileResult } from '../../core/reconcile/report';
import { recheckPaidOrders } from '../../core/reconcile/refunds';
import { settleRefusedTrials } from '../../core/subscriptions/trials';
import type { JobDefinition } from './job';

/**
 * Orders checked at once, and as many subscriptions beside them: a slow Razorpay, not the database, is
 * what bounds a run.
 */
const CONCURRENCY = 4;
/** Within the default 5-minute schedule; what a run did not reach waits for the next one. */
const MAX_RUN_MS = 4 * 60_000;
/** Paid orders asked about per run, for refunds their webhook missed. */
const PAID_ORDERS_PER_RUN = 500;
const PROGRESS_EVERY_MS = 10_000;

/**
 * Applies payments Razorpay captured but neither verify-payment nor a webhook applied, then applies full
 * refunds of recently paid orders whose webhook never came. Bounded by a deadline and a concurrency,
 * with no transaction open while Razorpay answers, and logging its progress as it goes.
 */
export const reconcileJob: JobDefinition = {
  name: 'reconcile',
  maxRunMs: MAX_RUN_MS,
  async run({ core, logger, signal }) {
    const processor = razorpayClientFor(core.config);
    const bounds = { concurrency: CONCURRENCY, signal };

    const progress = {
      order: progressLog(logger, 'reconcile: unpaid orders'),
      subscription: progressLog(logger, 'reconcile: live subscriptions'),
    };
    const report = await reconcileOrders(core, processor, {
      since: new Date(Date.now() - RECONCILE_LOOKBACK_MS),
      ...bounds,
      onProgress: (step) => progress[step.kind].step(step),
      dueOnly: true,
      // Thousands of orders may be skipped in a run: counted, not kept.
      listSkipped: false,
    });
    // Applying here means both the browser and the webhook missed the payment: worth a look.
    for (const entry of report.applied) logger.warn({ order: entry }, 'reconcile applied a missed payment');
    for (const entry of report.failed) logger.warn({ order: entry }, 'reconcile could not check an order');
    progress.order.end();
    progress.subscription.end();

    const refunds = await recheckPaidOrders(core, processor, { ...bounds, limit: PAID_ORDERS_PER_RUN });
    for (const entry of refunds.refunded) {
      logger.warn({ order: entry }, 'reconcile applied a refund whose webhook never came');
    }
    for (const entry of refunds.failed)
      logger.warn({ order: entry }, 'reconcile could not check a paid order');
    logger.info(
      { refunded: refunds.refunded.length, failed: refunds.failed.length, unchanged: refunds.unchanged },
      'reconcile: paid orders checked for refunds',
    );

    // A trial refused at authorisation (its buyer, guild or card/VPA had one): cancelled at Razorpay.
    for (const refusal of await settleRefusedTrials(core, processor)) {
      logger.warn({ trial: refusal }, `trial refused (${refusal.reason}): subscription cancelled`);
    }
  },
};

/** Logs how far a long pass is, at most every PROGRESS_EVERY_MS, and where it ended. */
function progressLog(logger: Logger, message: string) {
  const counts: Record<ReconcileResult, number> = { applied: 0, skipped: 0, failed: 0 };
  let done = 0;
  let total = 0;
  let loggedAt = Date.now();
  return {
    step(step: ReconcileProgress) {
      counts[step.result]++;
      done = step.done;
      total = step.total;
      if (Date.now() - loggedAt < PROGRESS_EVERY_MS) return;
      loggedAt = Date.now();
      logger.info({ done, total }, `${message}: in progress`);
    },
    end() {
      logger.info({ ...counts, done, total, leftForNextRun: total - done }, `${message}: done`);
    },
  };
}

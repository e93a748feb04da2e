import { razorpayClientFor } from '../../core/payments/processor';
import { RECONCILE_LOOKBACK_MS, reconcileOrders } from '../../core/payments/reconcile';
import type { JobDefinition } from './job';

/** Applies payments Razorpay captured but neither verify-payment nor a webhook applied. */
export const reconcileJob: JobDefinition = {
  name: 'reconcile',
  async run({ core, logger }) {
    const report = await reconcileOrders(core, razorpayClientFor(core.config), {
      since: new Date(Date.now() - RECONCILE_LOOKBACK_MS),
      dueOnly: true,
    });
    // Applying here means both the browser and the webhook missed the payment: worth a look.
    for (const entry of report.applied) logger.warn({ order: entry }, 'reconcile applied a missed payment');
    for (const entry of report.failed) logger.warn({ order: entry }, 'reconcile could not check an order');
    logger.debug({ skipped: report.skipped }, 'reconcile skipped orders');
  },
};

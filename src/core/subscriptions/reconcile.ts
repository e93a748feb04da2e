import type { Core } from '..';
import { isAppError } from '../errors';
import { LIVE_STATUSES, Subscription } from '../models';
import type { ReconcileEntry, ReconcileReport, ReconcileResult } from '../payments/reconcile';
import type { RazorpayClient } from '../processor/razorpay-client';
import { lockSubscription } from './locked-subscription';
import { applyProcessorView, fetchProcessorView } from './processor-view';
import { boundedEach, type Bounds } from '../bounded-each';

/**
 * The safety net of the subscription webhooks, run by the same reconcile as the orders (the worker's job
 * and `premium orders reconcile`): for each live subscription it asks the processor for the subscription
 * and its paid invoices, and applies every captured charge that no webhook delivered through the same
 * path as `subscription.charged` (a lost webhook costs minutes, not a month of premium), then takes the
 * status in (a lost `pending` still announces the failed renewal). Entries name the subscription in
 * `orderId`. `failed` lists subscriptions that could not be checked: a later run retries them.
 */
export async function reconcileSubscriptions(
  core: Core,
  processor: RazorpayClient,
  options: { dryRun?: boolean } & Partial<Bounds> = {},
): Promise<ReconcileReport> {
  const live = await Subscription.findAll({ where: { status: [...LIVE_STATUSES] }, order: [['id', 'ASC']] });
  const report: ReconcileReport = { applied: [], skipped: [], failed: [] };
  const bounds = { concurrency: options.concurrency ?? 1, signal: options.signal };
  await boundedEach(live, bounds, async (subscription) => {
    const [result, entry] = await reconcileOne(
      core,
      processor,
      subscription.processorSubscriptionId,
      options.dryRun ?? false,
    );
    report[result].push(entry);
  });
  return report;
}

async function reconcileOne(
  core: Core,
  processor: RazorpayClient,
  subscriptionId: string,
  dryRun: boolean,
): Promise<[ReconcileResult, ReconcileEntry]> {
  const entry = (paymentId: string | null, reason: string): ReconcileEntry => ({
    orderId: subscriptionId,
    paymentId,
    reason,
  });
  try {
    const view = await fetchProcessorView(processor, subscriptionId);
    const last = view.unrecordedCharges.at(-1)?.paymentId ?? null;
    if (dryRun) {
      return view.unrecordedCharges.length === 0
        ? ['skipped', entry(null, `no unrecorded charge (${view.subscription.status})`)]
        : ['applied', entry(last, `dry run: would grant ${view.unrecordedCharges.length} cycle(s)`)];
    }
    const changes = await core.sequelize.transaction(async (transaction) =>
      applyProcessorView(core.sequelize, await lockSubscription(transaction, subscriptionId), view, {
        source: 'reconcile',
        graceHours: core.config.subscriptionGraceHours,
        transaction,
      }),
    );
    const latest = changes.at(-1);
    return latest
      ? [
          'applied',
          entry(last, `granted ${changes.length} cycle(s), until ${latest.expiresAt.toISOString()}`),
        ]
      : ['skipped', entry(null, `no unrecorded charge (${view.subscription.status})`)];
  } catch (error) {
    const refused = isAppError(error) && error.kind !== 'unavailable';
    const reason = isAppError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    return [refused ? 'skipped' : 'failed', entry(null, reason)];
  }
}

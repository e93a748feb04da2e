import { readSettings } from '../settings';
import { execute, selectRows } from '../db/database';
import type { Core } from '..';
import { boundedPages } from '../bounded-each';
import { isAppError } from '../errors';
import { nextSubscriptionCheck } from '../check-schedule';
import {
  PAGE_SIZE,
  reconcileTally,
  type ReconcileEntry,
  type ReconcileOptions,
  type ReconcileReport,
  type ReconcileResult,
} from './report';
import type { RazorpayClient } from '../processor/razorpay-client';
import { lockSubscription } from '../subscriptions/locked-subscription';
import { fromUnix } from '../subscriptions/processor-state';
import { applyProcessorView, fetchProcessorView } from '../subscriptions/processor-view';
import { countLiveSubscriptions, liveSubscriptionsPage, MOVE_SUBSCRIPTION_CHECK } from '../subscriptions/sql';
import { reconcilerTrialReading } from '../subscriptions/trial-authorization';
import type { InstrumentReading } from '../subscriptions/trial-instrument';
import { startTrial, type TrialOutcome } from '../subscriptions/trials';

interface LiveSubscription {
  id: number;
  processorSubscriptionId: string;
  /** As PostgreSQL's text, to the microsecond: a Date's milliseconds would keep the row after itself. */
  keyTime: string;
  checksMade: number;
}

/**
 * The safety net of the subscription webhooks (docs/operating.md), so that a lost webhook costs minutes,
 * not a month of premium: each live subscription's paid invoices are applied as `subscription.charged`
 * would, then its status (a lost `pending` still announces the failed renewal). `dueOnly` is the
 * scheduled run: only subscriptions due a check (check-schedule), each then moved to its next one.
 */
export async function reconcileSubscriptions(
  core: Core,
  processor: RazorpayClient,
  options: Pick<
    ReconcileOptions,
    'dryRun' | 'dueOnly' | 'onProgress' | 'listSkipped' | 'pageSize' | 'concurrency' | 'signal'
  >,
): Promise<ReconcileReport> {
  const live = liveSubscriptions(core, options.dueOnly ?? false, options.pageSize ?? PAGE_SIZE);
  const tally = reconcileTally('subscription', await live.count(), options);
  const bounds = { concurrency: options.concurrency ?? 1, signal: options.signal };
  await boundedPages(live.nextPage, bounds, async (subscription) => {
    const [result, entry, chargeAt] = await reconcileOne(
      core,
      processor,
      subscription.processorSubscriptionId,
      options.dryRun ?? false,
    );
    if (options.dueOnly && !options.dryRun && result !== 'failed')
      await checked(core, subscription, chargeAt);
    tally.add(result, entry);
  });
  return tally.report;
}

function liveSubscriptions(core: Core, dueOnly: boolean, pageSize: number) {
  const due = dueOnly ? [new Date()] : [];
  const select = <T extends object>(sql: string, bind: unknown[]) => selectRows<T>(core.sequelize, sql, bind);
  return {
    count: async () => (await select<{ n: number }>(countLiveSubscriptions(dueOnly), due))[0]!.n,
    nextPage: (last: LiveSubscription | undefined) =>
      select<LiveSubscription>(
        liveSubscriptionsPage(dueOnly, pageSize),
        dueOnly ? [...due, last?.keyTime ?? '-infinity', last?.id ?? 0] : [last?.id ?? 0],
      ),
  };
}

/** Moves a checked subscription to its next check. */
async function checked(core: Core, subscription: LiveSubscription, chargeAt: Date | null): Promise<void> {
  const next = nextSubscriptionCheck(subscription.checksMade + 1, new Date(), chargeAt);
  await execute(core.sequelize, MOVE_SUBSCRIPTION_CHECK, [
    subscription.id,
    next.nextCheckAt,
    next.checksMade,
  ]);
}

/** The result, and when the processor says the subscription's next charge is due (null when unknown). */
async function reconcileOne(
  core: Core,
  processor: RazorpayClient,
  subscriptionId: string,
  dryRun: boolean,
): Promise<[ReconcileResult, ReconcileEntry, Date | null]> {
  const entry = (paymentId: string | null, reason: string): ReconcileEntry => ({
    orderId: subscriptionId,
    paymentId,
    reason,
  });
  let chargeAt: Date | null = null;
  try {
    const view = await fetchProcessorView(processor, subscriptionId);
    chargeAt = fromUnix(view.subscription.charge_at);
    const last = view.unrecordedCharges.at(-1)?.paymentId ?? null;
    if (dryRun) {
      return view.unrecordedCharges.length === 0
        ? ['skipped', entry(null, `no unrecorded charge (${view.subscription.status})`), chargeAt]
        : [
            'applied',
            entry(last, `dry run: would grant ${view.unrecordedCharges.length} cycle(s)`),
            chargeAt,
          ];
    }
    const reading = await reconcilerTrialReading(core, processor, subscriptionId, view.subscription.status);
    const [changes, trial] = await core.sequelize.transaction(async (transaction) => {
      const locked = await lockSubscription(transaction, subscriptionId);
      const applied = await applyProcessorView(core.sequelize, locked, view, {
        source: 'reconcile',
        graceHours: core.config.subscriptionGraceHours,
        invoicing: (await readSettings(core, transaction)).invoicing,
        transaction,
      });
      return [applied, await startTrial(core, locked, reading, transaction)] as const;
    });
    if (trial.result !== 'none') return ['applied', entry(null, trialReason(trial, reading!)), chargeAt];
    const latest = changes.at(-1);
    return latest
      ? [
          'applied',
          entry(last, `granted ${changes.length} cycle(s), until ${latest.expiresAt.toISOString()}`),
          chargeAt,
        ]
      : ['skipped', entry(null, `no unrecorded charge (${view.subscription.status})`), chargeAt];
  } catch (error) {
    const refused = isAppError(error) && error.kind !== 'unavailable';
    const reason = isAppError(error) ? `${error.code}: ${error.message}` : (error as Error).message;
    return [refused ? 'skipped' : 'failed', entry(null, reason), chargeAt];
  }
}

/** What the report says of a trial the reconciler decided (its webhook and verify never came). */
function trialReason(trial: TrialOutcome, reading: InstrumentReading): string {
  const instrument =
    reading.unread === null ? 'instrument checked' : `instrument not checked: ${reading.unread}`;
  return trial.result === 'refused'
    ? `trial refused (${trial.reason}; ${instrument})`
    : `trial started (${instrument})`;
}

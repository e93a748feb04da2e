import { Op, Sequelize, type WhereOptions } from 'sequelize';
import type { Core } from '..';
import { boundedPages } from '../bounded-each';
import { AppError, isAppError } from '../errors';
import { Order } from '../models';
import type { RazorpayClient, RazorpayPayment } from '../processor/razorpay-client';
import { reconcileSubscriptions } from '../subscriptions/reconcile';
import { amountMismatch, applyPayment } from './apply-payment';
import { nextCheckAt } from './check-schedule';

/**
 * How far back the scheduled run looks: a payment is captured within minutes of the order, but the
 * worker may have been down for a weekend. Older orders can still be named one at a time.
 */
export const RECONCILE_LOOKBACK_MS = 72 * 3_600_000;

export interface ReconcileOptions {
  /** Orders created at or after this time are looked at; ignored when `orderId` is given. */
  since: Date;
  /** Only this processor order, whatever its age. */
  orderId?: string;
  /** Ask the processor, report what would be applied, change nothing. */
  dryRun?: boolean;
  /**
   * The worker's scheduled run: only unpaid orders whose next check is due (see check-schedule), and each
   * check that finds nothing to apply moves the order's next check on. Otherwise (an operator asking now)
   * every unpaid order of the window is checked and no schedule moves.
   */
  dueOnly?: boolean;
  onProgress?: (progress: ReconcileProgress) => void;
  /** Orders checked at once (1 by default: in order), and as many subscriptions beside them. */
  concurrency?: number;
  /** false: skipped orders are counted in the progress only, not listed (a scheduled run's memory). */
  listSkipped?: boolean;
  /** Rows read at once (PAGE_SIZE by default): a run holds one page, whatever the backlog. */
  pageSize?: number;
  /** No order is checked once it aborts; the rest wait for the next run. */
  signal?: AbortSignal;
}

/** The reason of an unpaid order whose newest payment failed. */
export const PAYMENT_FAILED = 'PAYMENT_FAILED';

export type ReconcileResult = 'applied' | 'skipped' | 'failed';

export interface ReconcileEntry {
  /** The processor order (`order_…`), or the subscription (`sub_…`). */
  orderId: string;
  paymentId: string | null;
  reason: string;
}

export interface ReconcileProgress {
  /** Orders and subscriptions are counted apart. */
  kind: 'order' | 'subscription';
  done: number;
  total: number;
  result: ReconcileResult;
  entry: ReconcileEntry;
}

export type ReconcileReport = Record<ReconcileResult, ReconcileEntry[]>;

/**
 * Finds orders still `created` whose payment the processor captured but that nobody applied (the browser
 * closed before verify-payment, the webhook never came) and applies them through the same path as
 * verify-payment and the webhook, so an order the others applied meanwhile is not granted twice.
 * `failed` lists orders that could not be checked (processor or database trouble): a later run retries.
 */
export async function reconcileOrders(
  core: Core,
  processor: RazorpayClient,
  options: ReconcileOptions,
): Promise<ReconcileReport> {
  // Unpaid orders and live subscriptions side by side, so a backlog of one never starves the other.
  const [orders, subscriptions] = await Promise.all([
    reconcilePendingOrders(core, processor, options),
    options.orderId === undefined
      ? reconcileSubscriptions(core, processor, options)
      : { applied: [], skipped: [], failed: [] },
  ]);
  for (const result of RESULTS) orders[result].push(...subscriptions[result]);
  return orders;
}

const RESULTS = ['applied', 'skipped', 'failed'] as const;
export const PAGE_SIZE = 200;

/** Collects a run's results, and reports each as progress. */
export function reconcileTally(
  kind: ReconcileProgress['kind'],
  total: number,
  options: Pick<ReconcileOptions, 'onProgress' | 'listSkipped'>,
) {
  const report: ReconcileReport = { applied: [], skipped: [], failed: [] };
  let done = 0;
  return {
    report,
    add(result: ReconcileResult, entry: ReconcileEntry) {
      if (result !== 'skipped' || options.listSkipped !== false) report[result].push(entry);
      options.onProgress?.({ kind, done: ++done, total, result, entry });
    },
  };
}

async function reconcilePendingOrders(
  core: Core,
  processor: RazorpayClient,
  options: ReconcileOptions,
): Promise<ReconcileReport> {
  const named = options.orderId === undefined ? null : await namedOrder(options.orderId);
  const pending = pendingOrders(options);
  const tally = reconcileTally('order', named ? 1 : await Order.count({ where: pending.where }), options);
  const handle = async (order: Order) => {
    const [result, entry] = await reconcileOrder(core, processor, order, options.dryRun ?? false);
    if (options.dueOnly && !options.dryRun && result !== 'failed') await checked(order);
    tally.add(result, entry);
  };
  const bounds = { concurrency: options.concurrency ?? 1, signal: options.signal };
  if (named) await handle(named);
  else await boundedPages(pending.nextPage, bounds, handle);
  return tally.report;
}

async function namedOrder(orderId: string): Promise<Order> {
  const order = await Order.findOne({ where: { processorOrderId: orderId } });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
  return order;
}

/**
 * The unpaid orders of the window in keyset pages. The scheduled run takes those due by the time it
 * started, the longest due first (so what one run could not reach is first in the next), through
 * `orders_next_check_page`; a check moves an order's next check past the run's start, out of the run.
 * An operator's run takes every unpaid order of the window by id.
 */
function pendingOrders({ since, dueOnly, pageSize = PAGE_SIZE }: ReconcileOptions) {
  const startedAt = new Date();
  const where: WhereOptions<Order> = {
    status: 'created',
    createdAt: { [Op.gte]: since },
    ...(dueOnly && { nextCheckAt: { [Op.lte]: startedAt } }),
  };
  // The order's next check as PostgreSQL's text, to the microsecond: a Date's milliseconds would keep a
  // row after itself, and a run would take an order it could not check again and again.
  const keyTime = (order: Order) => order.get('keyTime') as string;
  const after = (last: Order): WhereOptions<Order> =>
    dueOnly
      ? Sequelize.where(
          Sequelize.literal('("Order"."next_check_at", "Order"."id")'),
          Op.gt,
          Sequelize.literal(`(${Order.sequelize!.escape(keyTime(last))}::timestamptz, ${last.id})`),
        )
      : { id: { [Op.gt]: last.id } };
  return {
    where,
    nextPage: (last: Order | undefined) =>
      Order.findAll({
        attributes: { include: [[Sequelize.literal('"Order"."next_check_at"::text'), 'keyTime']] },
        where: last ? { [Op.and]: [where, after(last)] } : where,
        order: dueOnly
          ? [
              ['nextCheckAt', 'ASC'],
              ['id', 'ASC'],
            ]
          : [['id', 'ASC']],
        limit: pageSize,
      }),
  };
}

async function reconcileOrder(
  core: Core,
  processor: RazorpayClient,
  order: Order,
  dryRun: boolean,
): Promise<[ReconcileResult, ReconcileEntry]> {
  const entry = (paymentId: string | null, reason: string): ReconcileEntry => ({
    orderId: order.processorOrderId,
    paymentId,
    reason,
  });
  if (order.status !== 'created')
    return ['skipped', entry(order.paymentId, `order is already ${order.status}`)];

  let payments: RazorpayPayment[];
  try {
    payments = await processor.fetchOrderPayments(order.processorOrderId);
  } catch (error) {
    return ['failed', entry(null, reasonOf(error))];
  }
  const captured = payments.find(
    (payment) => payment.status === 'captured' && !order.refundedPaymentIds.includes(payment.id),
  );
  if (!captured) {
    // Every attempt declined: the buyer has to pay again (one in flight may still be captured).
    const newest = payments.reduce<RazorpayPayment | null>(
      (latest, payment) => (latest === null || payment.created_at >= latest.created_at ? payment : latest),
      null,
    );
    return newest && payments.every((payment) => payment.status === 'failed')
      ? ['skipped', entry(newest.id, `${PAYMENT_FAILED}: ${newest.error_description ?? 'declined'}`)]
      : ['skipped', entry(null, 'no captured payment')];
  }
  const mismatch = amountMismatch(order, captured);
  if (mismatch) return ['skipped', entry(captured.id, `AMOUNT_MISMATCH: ${mismatch}`)];
  if (dryRun) return ['applied', entry(captured.id, `dry run: would grant ${order.durationDays} days`)];

  try {
    const { change } = await applyPayment(
      core.sequelize,
      { processorOrderId: order.processorOrderId, paymentId: captured.id, paid: captured },
      { source: 'reconcile' },
    );
    return change.replayed
      ? ['skipped', entry(captured.id, 'applied meanwhile by verify-payment or the webhook')]
      : ['applied', entry(captured.id, `granted until ${change.expiresAt.toISOString()}`)];
  } catch (error) {
    const refused = isAppError(error) && error.kind !== 'unavailable';
    return [refused ? 'skipped' : 'failed', entry(captured.id, reasonOf(error))];
  }
}

/** Moves an order that is still unpaid to its next check, or ends its checks. */
async function checked(order: Order): Promise<void> {
  const checksMade = order.checksMade + 1;
  await Order.update(
    { checksMade, nextCheckAt: nextCheckAt(checksMade, new Date()) },
    { where: { id: order.id, status: 'created' } },
  );
}

export function reasonOf(error: unknown): string {
  if (isAppError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

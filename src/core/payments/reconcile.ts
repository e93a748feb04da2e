import { Op, type WhereOptions } from 'sequelize';
import type { Core } from '..';
import { boundedEach } from '../bounded-each';
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
  /** Orders checked at once (1 by default: in order). */
  concurrency?: number;
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
  const orders = await pendingOrders(options);
  const report: ReconcileReport = { applied: [], skipped: [], failed: [] };
  const bounds = { concurrency: options.concurrency ?? 1, signal: options.signal };
  // No transaction is open here: each order's processor call comes first, then applyPayment's own.
  await boundedEach(orders, bounds, async (order) => {
    const [result, entry] = await reconcileOrder(core, processor, order, options.dryRun ?? false);
    if (options.dueOnly && !options.dryRun && result !== 'failed') await checked(order);
    report[result].push(entry);
    options.onProgress?.({
      done: report.applied.length + report.skipped.length + report.failed.length,
      total: orders.length,
      result,
      entry,
    });
  });
  // Live subscriptions too, unless one order was named.
  if (options.orderId === undefined) {
    const subscriptions = await reconcileSubscriptions(core, processor, {
      dryRun: options.dryRun,
      ...bounds,
    });
    for (const result of ['applied', 'skipped', 'failed'] as const)
      report[result].push(...subscriptions[result]);
  }
  return report;
}

async function pendingOrders({ since, orderId, dueOnly }: ReconcileOptions): Promise<Order[]> {
  if (orderId === undefined) {
    const due: WhereOptions<Order> = dueOnly
      ? {
          // An order stored without a schedule is due at once; one whose schedule ended, never.
          [Op.or]: [{ nextCheckAt: { [Op.lte]: new Date() } }, { nextCheckAt: null, checksMade: 0 }],
        }
      : {};
    return Order.findAll({
      where: { status: 'created', createdAt: { [Op.gte]: since }, ...due },
      order: [['id', 'ASC']],
    });
  }
  const order = await Order.findOne({ where: { processorOrderId: orderId } });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
  return [order];
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

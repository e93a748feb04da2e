import { readSettings } from '../settings';
import { Op, Sequelize, type WhereOptions } from 'sequelize';
import type { Core } from '..';
import { boundedPages } from '../bounded-each';
import { AppError, isAppError } from '../errors';
import { Order } from '../models';
import type { RazorpayClient, RazorpayPayment } from '../processor/razorpay-client';
import { reconcileSubscriptions } from './subscriptions';
import { amountMismatch, applyPayment } from '../payments/apply-payment';
import { refundIfRefused } from '../refunds/refused-payment';
import { moveToNextCheck } from '../orders/changes';
import {
  PAGE_SIZE,
  reconcileTally,
  type ReconcileEntry,
  type ReconcileOptions,
  type ReconcileReport,
  type ReconcileResult,
} from './report';
import { ORDER_CHECK_KEY, ORDER_CHECK_KEY_TIME, orderCheckKeyOf } from '../payments/sql';

/**
 * How far back the scheduled run looks: a payment is captured within minutes of the order, but the
 * worker may have been down for a weekend. Older orders can still be named one at a time.
 */
export const RECONCILE_LOOKBACK_MS = 72 * 3_600_000;

/** The reason of an unpaid order whose newest payment failed. */
export const PAYMENT_FAILED = 'PAYMENT_FAILED';

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
    if (options.dueOnly && !options.dryRun && result !== 'failed') await moveToNextCheck(order);
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
  const keyTime = (order: Order) => order.get('keyTime') as string;
  const after = (last: Order): WhereOptions<Order> =>
    dueOnly
      ? Sequelize.where(
          Sequelize.literal(ORDER_CHECK_KEY),
          Op.gt,
          Sequelize.literal(orderCheckKeyOf(Order.sequelize!.escape(keyTime(last)), last.id)),
        )
      : { id: { [Op.gt]: last.id } };
  return {
    where,
    nextPage: (last: Order | undefined) =>
      Order.findAll({
        attributes: { include: [[Sequelize.literal(ORDER_CHECK_KEY_TIME), 'keyTime']] },
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
    const applied = await applyPayment(
      core.sequelize,
      { processorOrderId: order.processorOrderId, paymentId: captured.id, paid: captured },
      {
        source: 'reconcile',
        invoicing: (await readSettings(core)).invoicing,
        offerHoldMinutes: core.config.offerHoldMinutes,
      },
    );
    // A refused payment is refunded and answered as a refusal (skipped, with its reason).
    const { order: locked, change, bundle, gift } = await refundIfRefused(core, processor, applied);
    // A gift grants nothing: the order it found unpaid is what this run applied.
    const replayed = gift ? locked.status !== 'created' : bundle ? !bundle.created : change!.replayed;
    const done = gift
      ? `made gift code #${gift.codeId}`
      : `granted until ${(change?.expiresAt ?? bundle!.endsAt).toISOString()}`;
    return replayed
      ? ['skipped', entry(captured.id, 'applied meanwhile by verify-payment or the webhook')]
      : ['applied', entry(captured.id, done)];
  } catch (error) {
    const refused = isAppError(error) && error.kind !== 'unavailable';
    return [refused ? 'skipped' : 'failed', entry(captured.id, reasonOf(error))];
  }
}

export function reasonOf(error: unknown): string {
  if (isAppError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

import type { Transaction } from 'sequelize';
import { recordFailedAttempt } from '../orders/changes';
import { lockOrder } from '../orders/locked-order';

export interface FailedPayment {
  processorOrderId: string;
  paymentId: string;
  /** The bank's or Checkout's reason (`error_description`). */
  reason: string;
  /** When the attempt was made (the payment's `created_at`). */
  at: Date;
}

export type FailedPaymentOutcome = { result: 'recorded' } | { result: 'ignored'; reason: string };

/**
 * `payment.failed`: the buyer's attempt to pay an unpaid order was declined. The order stays payable
 * (another attempt may still pay it) and keeps the newest failed attempt, so that the buyer is told it
 * failed and offered to pay again rather than to wait. An order paid meanwhile keeps nothing of it.
 * ORDER_NOT_FOUND when the order is none of ours.
 */
export async function applyFailedPayment(
  failed: FailedPayment,
  transaction: Transaction,
): Promise<FailedPaymentOutcome> {
  const { order } = await lockOrder(transaction, failed.processorOrderId);
  if (order.status !== 'created') {
    return { result: 'ignored', reason: `order ${order.processorOrderId} is already ${order.status}` };
  }
  // Webhooks come in any order: an older attempt's failure never replaces a newer one's.
  if (order.paymentFailedAt !== null && order.paymentFailedAt > failed.at) {
    return { result: 'ignored', reason: `a later attempt of order ${order.processorOrderId} failed already` };
  }
  await recordFailedAttempt(order, failed, transaction);
  return { result: 'recorded' };
}

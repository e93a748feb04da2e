import type { Core } from '..';
import { describeOrder } from '../admin/orders';
import { AppError } from '../errors';
import { PAYMENT_FAILED, reconcileOrders } from './orders';
import { OFFER_HOLD_EXPIRED } from '../payments/late-offer-payment';
import type { RazorpayClient } from '../processor/razorpay-client';
import { ownOrderOf, type OwnOrder } from '../orders/own-orders';

export interface Recheck extends OwnOrder {
  /** True when this recheck found a captured payment and granted its premium. */
  applied: boolean;
  message: string;
}

/**
 * "I paid, where is my premium?": asks the processor about one of the caller's unpaid orders and applies
 * a captured payment through the reconciler's path (`applyPayment`), so it grants at most once whoever
 * else applies it. A paid or refunded order is answered from the database without asking anyone.
 * Refusals: ORDER_NOT_FOUND (404: unknown, or another user's), PROCESSOR_UNAVAILABLE (502).
 */
export async function recheckOrder(
  core: Core,
  processor: RazorpayClient,
  request: { callerProviderId: string; orderId: string },
): Promise<Recheck> {
  const before = await describeOrder(core.sequelize, request.orderId);
  // Answered as describeOrder answers an unknown id: no telling whose order ids exist.
  if (before.order.buyerProviderId !== request.callerProviderId) {
    throw AppError.notFound('ORDER_NOT_FOUND', `no order ${request.orderId}`);
  }
  const report = await reconcileOrders(core, processor, { since: new Date(0), orderId: request.orderId });
  const [failed] = report.failed;
  if (failed) {
    throw AppError.unavailable('PROCESSOR_UNAVAILABLE', `Razorpay could not be asked: ${failed.reason}`);
  }
  const applied = report.applied.length > 0;
  // Read again: this recheck, or the webhook meanwhile, may have paid it.
  const { order } = await describeOrder(core.sequelize, request.orderId);
  return {
    ...ownOrderOf(order),
    applied,
    message: messageFor(order.status, applied, report.skipped[0]?.reason),
  };
}

function messageFor(status: OwnOrder['status'], applied: boolean, skipped: string | undefined): string {
  if (applied) return 'Payment found at Razorpay: your premium is now active.';
  if (skipped?.startsWith(`${OFFER_HOLD_EXPIRED}:`)) {
    return "Your payment came after the offer's hold ran out, and the offer no longer applied: nothing was granted and the payment is refunded in full.";
  }
  if (status === 'paid') return 'This order is paid and its premium was granted.';
  if (status === 'refunded') return 'This order was refunded.';
  if (skipped?.startsWith('AMOUNT_MISMATCH')) {
    return 'Razorpay has a payment that does not match this order; support has to look at it.';
  }
  if (skipped?.startsWith(PAYMENT_FAILED)) {
    return `Your last payment of this order failed (${skipped.slice(PAYMENT_FAILED.length + 2)}). Nothing was charged: pay again.`;
  }
  return 'Razorpay has no completed payment for this order yet. A payment is usually confirmed within minutes.';
}

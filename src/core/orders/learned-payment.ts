import type { Order } from '../models';

/**
 * What an order records of a payment it learns of from a refund or a dispute before the payment itself
 * was applied (webhooks arrive in any order): the payment, and that it was paid then, so that the order
 * history and revenue figures show it; the reconciler stops asking about it. No premium is granted for
 * it: the ledger says "never granted" (docs/delivery-order.md).
 */
export function learnedPayment(paymentId: string): Pick<Order, 'paymentId' | 'paidAt' | 'nextCheckAt'> {
  return { paymentId, paidAt: new Date(), nextCheckAt: null };
}

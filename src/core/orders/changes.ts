import { type Sequelize, type Transaction } from 'sequelize';
import { nextCheckAt } from '../check-schedule';
import { execute } from '../db/database';
import type { PlainQuery } from '../db/plain-query';
import { Order, type DisputeStatus } from '../models';
import { learnedPayment } from './learned-payment';
import { MARK_REFUND_CHECKED, ORDER_PAID_WITHOUT_GRANT, ORDER_PAID_REFUSED } from './sql';

/*
 * Every change of an order's row after it was created, so that the orders table is written from this
 * area alone. Marking it paid is ORDER_PAID_WITH_GRANT (sql.ts), which applyPayment hands to the grant
 * so that the paid-and-grant transaction sends it inside the grant's statement; a bundle's payment and a
 * refused one are statements built here, which applyPayment sends in that pipelined transaction.
 */

/** Order `orderId` paid by `paymentId` with no grant (a bundle's, a gift's); its id when it was still unpaid. */
export const orderPaidWithoutGrant = (orderId: number, paymentId: string): PlainQuery => ({
  name: 'order-paid-without-grant',
  text: ORDER_PAID_WITHOUT_GRANT,
  values: [orderId, paymentId],
});

/** Order `orderId` paid by `paymentId` and refused (`refusedCode`), never to be granted. */
export const orderPaidRefused = (orderId: number, paymentId: string, refusedCode: string): PlainQuery => ({
  name: 'order-paid-refused',
  text: ORDER_PAID_REFUSED,
  values: [orderId, paymentId, refusedCode],
});

/** The order keeps its newest failed attempt to pay (`payment.failed`). */
export async function recordFailedAttempt(
  order: Order,
  failed: { paymentId: string; reason: string; at: Date },
  transaction: Transaction,
): Promise<void> {
  await order.update(
    { failedPaymentId: failed.paymentId, paymentFailure: failed.reason, paymentFailedAt: failed.at },
    { transaction },
  );
}

/** A full refund of `paymentId`; an order still unpaid records the payment it learns of. */
export async function markOrderRefunded(
  order: Order,
  paymentId: string,
  transaction: Transaction,
): Promise<void> {
  await order.update(
    {
      status: 'refunded',
      paymentId,
      refundedAt: new Date(),
      ...(order.status === 'created' && learnedPayment(paymentId)),
    },
    { transaction },
  );
}

/** Where a dispute of `paymentId` leaves the order; an order still unpaid records the payment. */
export async function setOrderStanding(
  order: Order,
  status: 'paid' | 'disputed' | 'refunded',
  paymentId: string,
  transaction: Transaction,
): Promise<void> {
  await order.update(
    {
      status,
      ...(status === 'refunded' && { refundedAt: new Date() }),
      ...(order.status === 'created' && learnedPayment(paymentId)),
    },
    { transaction },
  );
}

/** Names the dispute on the order, as its latest. */
export async function recordOrderDispute(
  order: Order,
  disputeId: string,
  disputeStatus: DisputeStatus,
  transaction: Transaction,
): Promise<void> {
  await order.update({ disputeId, disputeStatus }, { transaction });
}

/** Keeps the grant that now carries the order's premium (src/core/disputes/README.md). */
export async function recordOrderRestoreGrant(
  order: Order,
  restoreGrantId: number,
  transaction: Transaction,
): Promise<void> {
  await order.update({ restoreGrantId }, { transaction });
}

/** Moves an order that is still unpaid to its next check by the reconciler, or ends its checks. */
export async function moveToNextCheck(order: Order): Promise<void> {
  const checksMade = order.checksMade + 1;
  await Order.update(
    { checksMade, nextCheckAt: nextCheckAt(checksMade, new Date()) },
    { where: { id: order.id, status: 'created' } },
  );
}

/** The refund check looked at the paid order now. */
export async function markRefundChecked(sequelize: Sequelize, orderId: number): Promise<void> {
  await execute(sequelize, MARK_REFUND_CHECKED, [orderId]);
}

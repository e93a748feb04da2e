import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { revokePremium } from '../premium/revoke';
import { learnedPayment } from './learned-payment';
import { lockOrder } from './locked-order';
import { grantsOfOrder, standingGrant } from './standing-grant';

export interface ProcessedRefund {
  /** Null when the reconciler found the payment refunded: Razorpay's payment says how much, not by which refund. */
  refundId: string | null;
  processorOrderId: string;
  paymentId: string;
  /** In paise: everything refunded on the payment so far, this refund included. */
  refundedTotal: number;
}

export type RefundOutcome = { result: 'refunded' } | { result: 'ignored'; reason: string };

/**
 * A full refund (possibly the last of several partial ones) marks the order `refunded` and takes back the
 * grant standing for it (its own, or the one a won dispute gave back; none when an operator or an open
 * dispute took it already) through `revokePremium`, which publishes the REMOVE event. A partial refund
 * keeps premium: the buyer keeps what they still paid for, and an operator can revoke by hand.
 *
 * Webhooks arrive in any order, so a full refund may come while the order is still unpaid. The order
 * then ends as it would have in order, `refunded` with the payment and the refund recorded, but premium
 * that never ran is never granted (no ledger row, no stream event): its late capture, verification or
 * reconciliation is refused as ORDER_REFUNDED. A refunded payment was captured, so Razorpay's order is
 * paid and takes no other payment.
 */
export async function applyRefund(
  sequelize: Sequelize,
  refund: ProcessedRefund,
  options: { transaction?: Transaction; source?: 'webhook' | 'reconcile' } = {},
): Promise<RefundOutcome> {
  const source = options.source ?? 'webhook';
  const described = refund.refundId ? `refund ${refund.refundId}` : `a refund of ${refund.paymentId}`;
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const { order } = await lockOrder(transaction, refund.processorOrderId);
    if (order.paymentId !== null && order.paymentId !== refund.paymentId) {
      return ignored(`${described} is for payment ${refund.paymentId}, which did not pay the order`);
    }
    if (order.status === 'refunded') return ignored(`order ${order.processorOrderId} is already refunded`);
    if (refund.refundedTotal < order.amountPaise) {
      return ignored(`partial refund (${refund.refundedTotal} of ${order.amountPaise} paise): premium kept`);
    }
    const grant = await standingGrant(grantsOfOrder(order), transaction);
    await order.update(
      {
        status: 'refunded',
        paymentId: refund.paymentId,
        refundedAt: new Date(),
        ...(order.status === 'created' && learnedPayment(refund.paymentId)),
      },
      { transaction },
    );
    if (grant) {
      await revokePremium(
        sequelize,
        {
          target: { grantId: grant.id },
          source,
          actor: source === 'webhook' ? 'razorpay-webhook' : 'reconciler',
          reason: source === 'webhook' ? described : `${described}, found by the reconciler`,
          idempotencyKey: `refund:${order.processorOrderId}`,
        },
        { transaction },
      );
    }
    return { result: 'refunded' };
  });
}

function ignored(reason: string): RefundOutcome {
  return { result: 'ignored', reason };
}

import type { Sequelize, Transaction } from 'sequelize';
import type { RefundOutcome } from '../payments/refunds';
import { grantsOfCharge, standingGrant } from '../payments/standing-grant';
import { revokePremium } from '../premium/revoke';
import { lockChargeOfPayment } from './locked-charge';

export interface ChargeRefund {
  refundId: string;
  paymentId: string;
  /** In paise: everything refunded on the payment so far, this refund included. */
  refundedTotal: number;
}

/**
 * A full refund of a subscription's charge takes that cycle back through `revokePremium` (the REMOVE
 * event names the subscription), the grant a won dispute gave back if there was one; a partial one keeps
 * premium, as for orders. Returns null when the payment is no charge of ours, so the order refund path can
 * look at it.
 */
export async function applyChargeRefund(
  sequelize: Sequelize,
  refund: ChargeRefund,
  transaction: Transaction,
): Promise<RefundOutcome | null> {
  const locked = await lockChargeOfPayment(transaction, refund.paymentId);
  if (!locked) return null;
  const { subscription, charge } = locked;
  if (charge.status === 'refunded') {
    return { result: 'ignored', reason: `charge ${charge.paymentId} is already refunded` };
  }
  if (refund.refundedTotal < charge.amountPaise) {
    return {
      result: 'ignored',
      reason: `partial refund (${refund.refundedTotal} of ${charge.amountPaise} paise): premium kept`,
    };
  }
  await charge.update({ status: 'refunded', refundedAt: new Date() }, { transaction });
  const grant = await standingGrant(grantsOfCharge(charge), transaction);
  if (grant) {
    await revokePremium(
      sequelize,
      {
        target: { grantId: grant.id },
        source: 'subscription',
        actor: 'razorpay-webhook',
        reason: `refund ${refund.refundId}`,
        idempotencyKey: `subscription-refund:${charge.paymentId}`,
        subscriptionId: subscription.processorSubscriptionId,
      },
      { transaction },
    );
  }
  return { result: 'refunded' };
}

import type { Sequelize, Transaction } from 'sequelize';
import { AppError } from '../errors';
import { lockPayment } from '../payments/locked-payment';
import type { PremiumChange, RevokeRequest } from '../premium/types';
import { processedTotalOf, refundedPaymentOf } from '../purchase-kinds/refund-records';
import { paymentAsBought, takeRefundedShare } from '../purchase-kinds';

/**
 * An operator's release of a partial refund's revoke that the revocation guard held: the refund's share is
 * taken now as it would have been then (takeRefundedShare: the share of the days, the rest restored),
 * counted from everything refunded of the payment by now, so no refund's days are taken twice. Nothing is
 * taken once the payment is no longer paid (refunded in full, or disputed: a refund then takes nothing,
 * held or not, docs/refunds.md) or its refunds' days were taken already; that is an AppError, which the
 * release records as "nothing taken", so no held row waits on a dispute that may never end.
 */
export async function releaseRefundedShare(
  sequelize: Sequelize,
  transaction: Transaction,
  rowId: number,
  held: RevokeRequest,
): Promise<{ change: PremiumChange; detail: string }> {
  const refunded = await refundedPaymentOf(transaction, rowId);
  const locked = await lockPayment(sequelize, transaction, refunded, null);
  if (!locked) throw AppError.notFound('PAYMENT_NOT_FOUND', `no payment ${refunded.paymentId} of ours`);
  const payment = await paymentAsBought(transaction, locked);
  if (payment.standing !== 'paid') {
    throw AppError.conflict(
      'PAYMENT_NOT_PAID',
      `${payment.name} is ${payment.standing} now: nothing left to take`,
    );
  }
  const taken = await takeRefundedShare(
    sequelize,
    transaction,
    payment,
    {
      recorded: {
        rowId,
        alreadyApplied: false,
        refundedTotal: await processedTotalOf(transaction, refunded.paymentId),
        requestedBy: null,
      },
      source: held.source,
      actor: held.actor,
      reason: held.reason,
    },
    { released: true },
  );
  if (taken.kind === 'held') throw new Error('a released refund share was held again');
  if (taken.kind === 'nothing to take') {
    throw AppError.conflict('REFUND_SHARE_TAKEN', `the refunds of ${payment.name} took their days already`);
  }
  const restored = taken.restore
    ? `, ${taken.restore.days} given back as ledger row ${taken.restore.grantId}`
    : '';
  return {
    change: taken.revoke,
    detail: `ledger row ${taken.revoke.grantId}: ${taken.days} days taken${restored}`,
  };
}

import type { Sequelize, Transaction } from 'sequelize';
import { takeFromBundle, type BundleTake, type LockedBundle } from '../bundles';
import type { RevokeLimit } from '../premium/revoke';
import { daysTakenByRefunds, recordDaysTaken } from './refund-records';
import { refundShareKey } from './single-refund-share';
import type { RefundedShare } from './types';

/**
 * A partial refund of a bundle's payment, by the rule of one guild's (takeRefundedShare): the refunded
 * total's share of the bundle's days, rounded up to whole days, less what the payment's refunds took
 * already, is taken from every bound guild and from the bundle's end (docs/bundles.md).
 */
export async function takeRefundedBundleShare(
  sequelize: Sequelize,
  transaction: Transaction,
  bundle: LockedBundle,
  payment: { paymentId: string; amountPaise: number },
  share: RefundedShare,
  limit: RevokeLimit,
): Promise<void> {
  const { rowId, refundedTotal } = share.recorded;
  const owed = Math.ceil((bundle.days * refundedTotal) / payment.amountPaise);
  const days = owed - (await daysTakenByRefunds(transaction, payment.paymentId));
  if (days <= 0) return;
  const take: BundleTake = { days };
  await takeFromBundle(
    sequelize,
    transaction,
    bundle,
    take,
    { source: share.source, actor: share.actor, reason: share.reason, idempotencyKey: refundShareKey(rowId) },
    limit,
  );
  await recordDaysTaken(transaction, rowId, days);
}

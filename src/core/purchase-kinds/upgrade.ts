import type { Transaction } from 'sequelize';
import { AppError } from '../errors';
import { Order, PremiumGrant } from '../models';
import type { LockedPayment } from './payment';
import { recordDaysTaken } from './refund-records';
import { convertedGrantKey } from '../premium/convert';
import { grantPaidFor } from '../premium/grant-paid-for';
import { revokePremium } from '../premium/revoke';
import { refundDaysOwed } from './single-refund-share';
import { grantUpgrade } from './upgrade-grant';
import type { PurchaseKind } from './types';

/** The key of the conversion back that a partial refund's row `rowId` makes of an upgrade. */
const upgradeShareKey = (rowId: number): string => `upgrade-refund-share:${rowId}`;

/**
 * The upgrade of days held (docs/payments.md, "The upgrade kind"): what the payment bought is the grant
 * of the higher tier its order gave for the buyer's days of the lower one, moved by transfers and
 * replaced by restores as a one-target purchase's. A take converts its days (all that is left, a share,
 * or a dispute's share) back into the lower tier through one revoke with `convertTo`, so the revocation
 * guard holds the whole conversion and its release makes it; a won dispute converts them up again.
 */
export const upgrade: PurchaseKind = {
  grant: grantUpgrade,

  async takeRefund({ sequelize, transaction, limit }, payment, take) {
    const grant = await grantPaidFor(payment, transaction, payment.plan.plan.tier);
    if (!grant) return;
    const lower = await lowerTierOf(transaction, payment);
    if (take.full) {
      await revokePremium(
        sequelize,
        { ...take.revoke, target: { grantId: grant.id }, convertTo: { tier: lower } },
        { transaction, ...limit },
      );
      return;
    }
    const { share } = take;
    const days = await refundDaysOwed(transaction, payment, share.recorded.refundedTotal);
    if (days <= 0) return;
    const key = upgradeShareKey(share.recorded.rowId);
    const revoked = await revokePremium(
      sequelize,
      {
        ...payment.premium,
        source: share.source,
        actor: share.actor,
        reason: share.reason,
        idempotencyKey: key,
        target: { grantId: grant.id },
        convertTo: { tier: lower, days },
      },
      { transaction, ...limit },
    );
    // What the share left in the higher tier (its rest) is the payment's grant from now on: grantPaidFor
    // follows the conversion to it, as the lower purchases follow both its halves.
    if (!('grantId' in revoked)) return;
    await recordDaysTaken(transaction, share.recorded.rowId, days);
  },

  async takeDisputed({ sequelize, transaction, limit }, payment, { share, revoke }) {
    const grant = await grantPaidFor(payment, transaction, payment.plan.plan.tier);
    if (!grant) return null;
    const revoked = await revokePremium(
      sequelize,
      {
        ...payment.premium,
        ...revoke,
        source: payment.premium.source,
        target: { grantId: grant.id, share },
        convertTo: { tier: await lowerTierOf(transaction, payment) },
      },
      { transaction, ...limit },
    );
    return 'grantId' in revoked ? revoked.grantId : null;
  },

  /**
   * Converts, once, the lower tier's days a dispute's revoke gave back into the higher tier again, where
   * they are now (never held: premium goes on). Nothing to convert when they are gone (an operator
   * revoked them, or they ran out): the dispute's revoke row stands as its restore.
   */
  async restoreDisputed({ sequelize, transaction }, payment, { revoke, trail }) {
    await trail.withdrawHeldRevokes();
    const taken = await trail.unrestoredRevoke();
    if (!taken) return false;
    const lowered = await PremiumGrant.findOne({
      where: { idempotencyKey: convertedGrantKey(taken.idempotencyKey) },
      transaction,
    });
    const key = `${taken.idempotencyKey}:won`;
    if (lowered && (await PremiumGrant.count({ where: { revokesGrantId: lowered.id }, transaction })) === 0) {
      await revokePremium(
        sequelize,
        {
          ...payment.premium,
          ...revoke,
          idempotencyKey: key,
          target: { grantId: lowered.id },
          convertTo: { tier: taken.tier },
        },
        { transaction, converting: true },
      );
    }
    const raised = await PremiumGrant.findOne({
      where: { idempotencyKey: convertedGrantKey(key) },
      transaction,
    });
    await trail.recordRestore(taken.disputeId, raised?.id ?? taken.ledgerId);
    if (raised) await payment.recordRestoreGrant(raised.id);
    return true;
  },
};

/** The tier whose days the upgrade converted: its order's. */
async function lowerTierOf(transaction: Transaction, payment: LockedPayment): Promise<string> {
  const order =
    'orderId' in payment.owner ? await Order.findByPk(payment.owner.orderId, { transaction }) : null;
  if (!order?.upgradeFromTier) {
    throw AppError.conflict('NOT_AN_UPGRADE', `${payment.name} did not pay for an upgrade`);
  }
  return order.upgradeFromTier;
}

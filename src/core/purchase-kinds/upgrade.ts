import type { Transaction } from 'sequelize';
import { AppError } from '../errors';
import { carryPurchasesPremium } from '../premium/carried-premium';
import { Order, PremiumGrant } from '../models';
import type { LockedPayment } from './payment';
import { recordDaysTaken } from './refund-records';
import { convertedGrantKey, unconvertedGrantKey } from '../premium/convert';
import { grantPaidFor, grantsOf } from '../premium/grant-paid-for';
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
    const grant = await grantPaidFor(payment, transaction);
    if (!grant) return;
    const lower = await lowerTierOf(transaction, payment);
    if (take.full) {
      const revoked = await revokePremium(
        sequelize,
        { ...take.revoke, target: { grantId: grant.id }, convertTo: { tier: lower } },
        { transaction, ...limit },
      );
      if ('grantId' in revoked)
        await carryLowerOrders(transaction, payment, grant.id, take.revoke.idempotencyKey);
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
    if (!('grantId' in revoked)) return;
    // What the share left in the higher tier is the payment's grant from now on.
    const rest = await PremiumGrant.findOne({
      where: { idempotencyKey: unconvertedGrantKey(key) },
      transaction,
    });
    if (rest) await payment.recordRestoreGrant(rest.id);
    await recordDaysTaken(transaction, share.recorded.rowId, days);
  },

  async takeDisputed({ sequelize, transaction, limit }, payment, { share, revoke }) {
    const grant = await grantPaidFor(payment, transaction);
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
    if (!('grantId' in revoked)) return null;
    await carryLowerOrders(transaction, payment, grant.id, revoke.idempotencyKey);
    return revoked.grantId;
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
    if (lowered) await carryLowerOrders(transaction, payment, lowered.id, key);
    return true;
  },
};

/**
 * The lower purchases whose days the upgrade converted follow them from grant `fromGrantId` to where the
 * conversion `key` put them (its grant in the other tier), so a refund of one of them still takes them.
 * They name the grant the upgrade gave them, which a transfer since may have moved on to `fromGrantId`:
 * every grant on the payment's trail is theirs. The upgrade's own order keeps what its kind recorded.
 */
async function carryLowerOrders(
  transaction: Transaction,
  payment: LockedPayment,
  fromGrantId: number,
  key: string,
): Promise<void> {
  const to = await PremiumGrant.findOne({ where: { idempotencyKey: convertedGrantKey(key) }, transaction });
  if (!to) return;
  const own = 'orderId' in payment.owner ? payment.owner.orderId : null;
  const trail = (await grantsOf(payment, transaction)).map((grant) => grant.id);
  await carryPurchasesPremium(
    transaction,
    { orderIds: [], restoreGrantIds: [...new Set([fromGrantId, ...trail])] },
    to.id,
    own,
  );
}

/** The tier whose days the upgrade converted: its order's. */
async function lowerTierOf(transaction: Transaction, payment: LockedPayment): Promise<string> {
  const order =
    'orderId' in payment.owner ? await Order.findByPk(payment.owner.orderId, { transaction }) : null;
  if (!order?.upgradeFromTier) {
    throw AppError.conflict('NOT_AN_UPGRADE', `${payment.name} did not pay for an upgrade`);
  }
  return order.upgradeFromTier;
}

import { grantPremium } from '../premium/grant';
import { revokePremium } from '../premium/revoke';
import { grantTakes, otherGrantsRevokes } from './each-grant';
import { daysLeftAfterRefunds, takeRefundedShare } from './single-refund-share';
import type { PurchaseKind } from './types';

/**
 * One user's or one guild's premium: what the payment bought is the grant it pays for (README.md of
 * src/core/disputes), moved by transfers and replaced by restores; a take revokes that grant, a part of
 * it restoring the rest as a new grant the payment pays for from then on.
 */
export const single: PurchaseKind = {
  async grant(_sequelize, payment) {
    return { change: await payment.grantDays() };
  },

  async takeRefund({ sequelize, transaction, limit }, payment, take) {
    if (!take.full) {
      await takeRefundedShare(sequelize, transaction, payment, take.share, limit);
      return;
    }
    for (const { grant, idempotencyKey, options } of await grantTakes(
      transaction,
      payment,
      take.revoke.idempotencyKey,
      limit,
      'each',
    )) {
      await revokePremium(
        sequelize,
        {
          ...take.revoke,
          idempotencyKey,
          target: { grantId: grant.id },
          subscriptionId: payment.premium.subscriptionId,
        },
        options,
      );
    }
  },

  async takeDisputed({ sequelize, transaction, limit }, payment, { share, revoke }) {
    let first: number | null = null;
    for (const { grant, idempotencyKey, options } of await grantTakes(
      transaction,
      payment,
      revoke.idempotencyKey,
      limit,
      'first',
    )) {
      const revoked = await revokePremium(
        sequelize,
        {
          ...payment.premium,
          ...revoke,
          idempotencyKey,
          source: payment.premium.source,
          target: { grantId: grant.id, share },
        },
        options,
      );
      // A revoke the revocation guard holds has no ledger row until it is released.
      if (!('grantId' in revoked)) return null;
      first ??= revoked.grantId;
    }
    return first;
  },

  /**
   * Restores, once, the days a dispute's revoke took (and its revokes of the payment's other grants:
   * grantTakes), less those the payment's refunds owe and could not take while it was disputed
   * (daysLeftAfterRefunds), to the guild or user each took them from (a transfer may have moved them since
   * the purchase), in the tier it took them from. Nothing is granted when nothing was taken (the premium
   * had run out, or an operator had revoked or ended it before).
   */
  async restoreDisputed({ sequelize, transaction }, payment, { revoke, trail }) {
    await trail.withdrawHeldRevokes();
    const taken = await trail.unrestoredRevoke();
    if (!taken) return false;
    const others = await otherGrantsRevokes(transaction, payment, taken.idempotencyKey);
    let restored: number | null = null;
    for (const each of [taken, ...others]) {
      const days = await daysLeftAfterRefunds(transaction, payment, -each.days);
      if (days === 0) continue;
      const restoring = await grantPremium(
        sequelize,
        {
          ...payment.plan,
          guildId: each.guildId,
          plan: { ...payment.plan.plan, durationDays: days, tier: each.tier },
          ...payment.premium,
          actor: revoke.actor,
          reason: revoke.reason,
          idempotencyKey: `${each.idempotencyKey}:won`,
        },
        { transaction },
      );
      restored ??= restoring.grantId;
    }
    // Restored with nothing when the payment's refunds owe every day the dispute took: by its own revoke row.
    await trail.recordRestore(taken.disputeId, restored ?? taken.ledgerId);
    // With two grants the payment keeps naming the one they came from; grantsPaidFor follows each restore.
    if (restored !== null && others.length === 0) await payment.recordRestoreGrant(restored);
    return true;
  },
};

import { grantPremium } from '../premium/grant';
import { grantPaidFor } from '../premium/grant-paid-for';
import { revokePremium } from '../premium/revoke';
import { grantTakes } from './each-grant';
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
    )) {
      const revoked = await revokePremium(
        sequelize,
        {
          ...take.revoke,
          idempotencyKey,
          target: { grantId: grant.id },
          subscriptionId: payment.premium.subscriptionId,
        },
        options,
      );
      if (revoked.kind === 'held') return;
    }
  },

  async takeDisputed({ sequelize, transaction, limit }, payment, { share, revoke }) {
    const grant = await grantPaidFor(payment, transaction);
    if (!grant) return null;
    const revoked = await revokePremium(
      sequelize,
      { ...payment.premium, ...revoke, source: payment.premium.source, target: { grantId: grant.id, share } },
      { transaction, ...limit },
    );
    // A revoke the revocation guard holds has no ledger row until it is released.
    return 'grantId' in revoked ? revoked.grantId : null;
  },

  /**
   * Restores, once, the days a dispute's revoke took, less those the payment's refunds owe and could not
   * take while it was disputed (daysLeftAfterRefunds), to the guild or user it took them from (a transfer
   * may have moved them since the purchase). Nothing is granted when nothing was taken (the premium had
   * run out, or an operator had revoked or ended it before).
   */
  async restoreDisputed({ sequelize, transaction }, payment, { revoke, trail }) {
    await trail.withdrawHeldRevokes();
    const taken = await trail.unrestoredRevoke();
    if (!taken) return false;
    const days = await daysLeftAfterRefunds(transaction, payment, -taken.days);
    if (days === 0) {
      // The payment's refunds owe every day the dispute took: restored with nothing, by its own revoke row.
      await trail.recordRestore(taken.disputeId, taken.ledgerId);
      return true;
    }
    const restoring = await grantPremium(
      sequelize,
      {
        ...payment.plan,
        guildId: taken.guildId,
        // Given back as days of the tier the dispute took them from.
        plan: { ...payment.plan.plan, durationDays: days, tier: taken.tier },
        ...payment.premium,
        actor: revoke.actor,
        reason: revoke.reason,
        idempotencyKey: `${taken.idempotencyKey}:won`,
      },
      { transaction },
    );
    await trail.recordRestore(taken.disputeId, restoring.grantId);
    await payment.recordRestoreGrant(restoring.grantId);
    return true;
  },
};

import type { Transaction } from 'sequelize';
import type { DisputedPayment } from '../disputes/types';
import type { SubscriptionCharge } from '../models';
import { planOf } from '../plans';
import { grantsOfCharge } from '../premium/grant-paid-for';
import { noticeBuyer } from '../seller-notices';
import type { LockedSubscription } from './locked-subscription';

/** A subscription's charge as the stage rules and the refunds see it (see applyChargeDispute). */
export function disputedCharge(
  { subscription, buyer, charge }: LockedSubscription & { charge: SubscriptionCharge },
  transaction: Transaction,
): DisputedPayment {
  const subscriptionId = subscription.processorSubscriptionId;
  return {
    name: `subscription ${subscriptionId} payment ${charge.paymentId}`,
    buyer: noticeBuyer(buyer),
    paymentId: charge.paymentId,
    amountPaise: charge.amountPaise,
    standing: charge.status === 'charged' ? 'paid' : charge.status,
    owner: { chargeId: charge.id },
    ...grantsOfCharge(charge),
    premium: { source: 'subscription', subscriptionId },
    plan: {
      category: subscription.category,
      providerId: buyer.providerId,
      guildId: subscription.guildId,
      plan: planOf({ ...subscription.get(), months: null }),
    },
    setStanding: async (standing) => {
      await charge.update(
        standing === 'refunded'
          ? { status: 'refunded', refundedAt: new Date() }
          : { status: standing === 'paid' ? 'charged' : standing },
        { transaction },
      );
    },
    recordDispute: async (disputeId, disputeStatus) => {
      await charge.update({ disputeId, disputeStatus }, { transaction });
    },
    recordRestoreGrant: async (restoreGrantId) => {
      await charge.update({ restoreGrantId }, { transaction });
    },
  };
}

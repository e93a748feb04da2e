import type { Sequelize, Transaction } from 'sequelize';
import type { SubscriptionCharge } from '../models';
import { resolvePlan } from '../plans';
import type { RevokeLimit } from '../premium/revoke';
import { lockChargeOfPayment } from '../subscriptions/locked-charge';
import type { LockedSubscription } from '../subscriptions/locked-subscription';
import { grantsOfCharge } from '../premium/grant-paid-for';
import { applyDisputeStage } from './stages';
import type { DisputedPayment, DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback of a subscription's charge, under the order's stage rules (`applyDispute`): `created`
 * revokes the cycle's grant, `won` restores the cycle, `lost` keeps it revoked (the charge
 * `refunded`), `closed` changes no premium; both name the subscription. Returns null when the payment is
 * no charge of ours, so the order path can look at it.
 */
export async function applyChargeDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  transaction: Transaction,
  limit: RevokeLimit = {},
): Promise<DisputeOutcome | null> {
  const locked = await lockChargeOfPayment(transaction, dispute.paymentId);
  if (!locked) return null;
  return applyDisputeStage(sequelize, transaction, disputedCharge(locked, transaction), dispute, limit);
}

export function disputedCharge(
  { subscription, buyer, charge }: LockedSubscription & { charge: SubscriptionCharge },
  transaction: Transaction,
): DisputedPayment {
  const subscriptionId = subscription.processorSubscriptionId;
  return {
    name: `subscription ${subscriptionId} payment ${charge.paymentId}`,
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
      plan: resolvePlan(subscription.planType),
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
    recordGivenBack: async (givenBackGrantId) => {
      await charge.update({ givenBackGrantId }, { transaction });
    },
  };
}

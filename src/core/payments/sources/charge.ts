import { messagePlan } from '../../buyer-messages';
import { Subscription, SubscriptionCharge } from '../../models';
import { planOf } from '../../plans';
import { grantsOfCharge } from '../../premium/grant-paid-for';
import { noticeBuyer } from '../../seller-notices';
import { lockSubscription } from '../../subscriptions/locked-subscription';
import type { PaymentContext, PaymentOfSource } from '../locked-payment';

/**
 * A subscription charge's payment, read again under its subscription's lock (refunds and disputes
 * change it one after another). Its premium is recorded as the subscription's.
 */
export async function lockChargePayment(
  { transaction }: PaymentContext,
  chargeId: number,
): Promise<PaymentOfSource> {
  const found = await SubscriptionCharge.findByPk(chargeId, { transaction, rejectOnEmpty: true });
  const owner = await Subscription.findByPk(found.subscriptionId, { transaction, rejectOnEmpty: true });
  const { subscription, buyer } = await lockSubscription(transaction, owner.processorSubscriptionId);
  const charge = await found.reload({ transaction });
  const subscriptionId = subscription.processorSubscriptionId;
  return {
    source: 'charge',
    name: `subscription ${subscriptionId} payment ${charge.paymentId}`,
    buyer: noticeBuyer(buyer),
    to: { providerId: buyer.providerId, username: buyer.username },
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
    messagePlan: messagePlan(subscription),
    reference: subscriptionId,
    refundRevokeKey: `subscription-refund:${charge.paymentId}`,
    refundSource: () => 'subscription',
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

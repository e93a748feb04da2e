import type { Transaction } from 'sequelize';
import type { PricedPlan } from '../catalog';
import type { Subscription } from '../models';

/** What a switch on a card records (docs/subscriptions.md, "Changing plan"): the plan the next charge pays for. */
export function pendingPlanColumns(plan: PricedPlan & { processorPlanId: string }) {
  return {
    pendingPlanType: plan.planType,
    pendingTier: plan.tier,
    pendingDurationDays: plan.durationDays,
    pendingAmountPaise: plan.pricePaise,
    pendingProcessorPlanId: plan.processorPlanId,
  };
}

export const NO_PENDING_PLAN = {
  pendingPlanType: null,
  pendingTier: null,
  pendingDurationDays: null,
  pendingAmountPaise: null,
  pendingProcessorPlanId: null,
};

/**
 * A charge not recorded before is the first of a cycle after the switch (a switch waits until every
 * paid cycle's charge is recorded): the pending plan becomes the subscription's, so this charge is checked
 * against its price and grants its tier and days, and so does every later one.
 */
export async function takePendingPlan(subscription: Subscription, transaction: Transaction): Promise<void> {
  if (subscription.pendingPlanType === null) return;
  await subscription.update(
    {
      planType: subscription.pendingPlanType,
      tier: subscription.pendingTier!,
      durationDays: subscription.pendingDurationDays!,
      amountPaise: subscription.pendingAmountPaise!,
      processorPlanId: subscription.pendingProcessorPlanId!,
      ...NO_PENDING_PLAN,
    },
    { transaction },
  );
}

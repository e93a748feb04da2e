import type { Core } from '..';
import { isAppError } from '../errors';
import type { RazorpayClient } from '../processor/razorpay-client';
import {
  planChangeOf,
  switchPlan,
  undoSwitch,
  type PlanChange,
  type PlanChangeRequest,
} from '../subscriptions/change';
import type { CreatedSubscription } from '../subscriptions/create';
import type { SubscriptionView } from '../subscriptions/views';
import { createOrder } from './create-order';
import { priceUpgrade, type PricedUpgrade } from './upgrade';

/** What a switch answers (docs/api.md, `POST /api/payment/subscriptions/:id/change`). */
export interface SubscriptionChange {
  subscription: SubscriptionView;
  /** The plan switched to, or kept when a pending switch was taken back. */
  plan: string;
  /** `now`: a higher tier or a longer cycle, or a pending switch taken back; `cycle_end`: a lower one. */
  timing: 'now' | 'cycle_end';
  /** When the new plan is first charged: the end of the paid cycle; null when a pending switch was taken back. */
  newPlanFrom: string | null;
  /** The rest of the cycle upgraded to the higher tier, as an order of kind `upgrade` to pay at Checkout. */
  upgrade: { orderId: string; amount: number; currency: 'INR'; days: number; keyId: string } | null;
  /** A UPI switch's new mandate, for the buyer to authorise (Razorpay cannot update a UPI one). */
  mandate: CreatedSubscription | null;
}

/**
 * Switches a subscription to another renewing plan (docs/subscriptions.md, "Changing plan"), for its buyer
 * (the route) or an operator (the CLI): the plan from the end of the paid cycle (subscriptions/change.ts),
 * and, to a higher tier, the rest of the cycle upgraded now as the one-off upgrade does, by an order of
 * kind `upgrade` priced by the difference of daily prices over the cycle's days left (at least ₹1). The
 * order is priced before anything changes, so a refusal leaves the subscription as it was; it is made
 * after the switch, and paying it converts the cycle's days (one UPDATE). Left unpaid, the cycle stays
 * in its tier and the new plan still starts at its end. The subscription's own plan, while a card's switch
 * to another is pending, takes that switch back (its cycle's upgrade, if any, stays as paid or unpaid).
 */
export async function changeSubscriptionPlan(
  core: Core,
  processor: RazorpayClient,
  request: PlanChangeRequest,
): Promise<SubscriptionChange> {
  const change = await planChangeOf(core, request);
  if ('undo' in change) {
    const kept = await undoSwitch(core, processor, change);
    return {
      subscription: kept,
      plan: kept.planType,
      timing: 'now',
      newPlanFrom: null,
      upgrade: null,
      mandate: null,
    };
  }
  const priced = change.upgradesCycle ? await cycleUpgradeOf(core, change) : null;
  const switched = await switchPlan(core, processor, change);
  const { subscription, buyer, plan } = change;
  const order =
    priced &&
    (await createOrder(core, processor, {
      callerProviderId: buyer.providerId,
      providerId: buyer.providerId,
      amount: priced.plan.pricePaise / 100,
      category: subscription.category,
      guildId: subscription.guildId,
      upgrade: {
        fromTier: subscription.tier,
        toPlan: plan.planType,
        subscriptionId: subscription.processorSubscriptionId,
      },
    }));
  return {
    subscription: switched.subscription,
    plan: plan.planType,
    timing: change.timing,
    newPlanFrom: subscription.currentEnd?.toISOString() ?? null,
    upgrade: order && {
      orderId: order.id,
      amount: order.amount / 100,
      currency: 'INR',
      days: priced!.plan.durationDays,
      keyId: core.config.razorpay.keyId,
    },
    mandate: switched.mandate,
  };
}

/** The upgrade of the cycle's days, or null when none are left to convert (an earlier switch did). */
async function cycleUpgradeOf(
  core: Core,
  { subscription, buyer, plan }: PlanChange,
): Promise<PricedUpgrade | null> {
  try {
    return await priceUpgrade(
      core,
      buyer,
      { category: subscription.category, guildId: subscription.guildId },
      {
        fromTier: subscription.tier,
        toPlan: plan.planType,
        subscriptionId: subscription.processorSubscriptionId,
      },
    );
  } catch (error) {
    if (isAppError(error) && error.code === 'NO_DAYS_TO_UPGRADE') return null;
    throw error;
  }
}

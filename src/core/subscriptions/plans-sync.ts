import type { Core } from '..';
import {
  planPrice,
  renewalOf,
  resolvePlan,
  SUBSCRIPTION_PLAN_TYPES,
  type SubscriptionPlanType,
} from '../plans';
import type { RazorpayClient, RazorpayPlan } from '../processor/razorpay-client';
import { formatPlanIds, type ProcessorPlanIds } from '../plan-ids';

export interface SyncedPlan {
  planType: SubscriptionPlanType;
  planId: string;
  /** Whole INR. */
  amount: number;
  /** False when an existing plan with the same period, interval and amount was reused. */
  created: boolean;
}

export interface PlanSync {
  plans: SyncedPlan[];
  /** The value for RAZORPAY_PLAN_IDS. */
  razorpayPlanIds: string;
}

/**
 * Finds, or else creates, the processor plan of each subscription plan at PLAN_PRICES (period monthly
 * or yearly, interval 1). Running it again creates nothing; after a price change it creates the new
 * plans (existing subscriptions keep theirs).
 */
export async function syncPlans(
  core: Core,
  processor: RazorpayClient,
  onProgress?: (message: string) => void,
): Promise<PlanSync> {
  const existing = await processor.listPlans();
  const plans: SyncedPlan[] = [];
  for (const planType of SUBSCRIPTION_PLAN_TYPES) {
    const amount = planPrice(resolvePlan(planType), core.config.planPrices);
    const match = existing.find((plan) => matches(plan, planType, amount));
    const plan =
      match ??
      (await processor.createPlan({
        period: renewalOf(planType).period,
        interval: 1,
        item: { name: `Premium ${planType}`, amount: amount * 100, currency: 'INR' },
        notes: { planType },
      }));
    onProgress?.(`${planType}: ${match ? 'found' : 'created'} ${plan.id}`);
    plans.push({ planType, planId: plan.id, amount, created: !match });
  }
  const ids: ProcessorPlanIds = Object.fromEntries(plans.map((plan) => [plan.planType, plan.planId]));
  return { plans, razorpayPlanIds: formatPlanIds(ids) };
}

function matches(plan: RazorpayPlan, planType: SubscriptionPlanType, amount: number): boolean {
  return (
    plan.period === renewalOf(planType).period &&
    plan.interval === 1 &&
    plan.item.amount === amount * 100 &&
    plan.item.currency === 'INR'
  );
}

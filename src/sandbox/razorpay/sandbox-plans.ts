import {
  billingPeriodOf,
  SEED_SUBSCRIPTION_PLAN_TYPES,
  type SeedSubscriptionPlanType,
} from '../../core/plans';
import type { SubscriptionSandbox } from './subscriptions';

/**
 * The plans a sandbox started with `subscriptionPlans` has from the start (`npm run dev`, the browser
 * test), under fixed ids, so the service can be configured with them before the sandbox answers.
 * `premium plans sync` against such a sandbox finds them.
 */
export const SANDBOX_PLAN_IDS = Object.fromEntries(
  SEED_SUBSCRIPTION_PLAN_TYPES.map((plan) => [plan, `plan_Sandbox${plan}`]),
) as Record<SeedSubscriptionPlanType, string>;

const SEED_PLAN_DAYS = { Monthly: 30, Yearly: 365 } as const;

/** Creates each subscription plan at its price in whole INR, under its SANDBOX_PLAN_IDS id. */
export function createSandboxPlans(
  subscriptions: SubscriptionSandbox,
  prices: Record<SeedSubscriptionPlanType, number>,
): void {
  for (const planType of SEED_SUBSCRIPTION_PLAN_TYPES) {
    subscriptions.createPlan(
      {
        ...billingPeriodOf(SEED_PLAN_DAYS[planType]),
        item: { name: `Premium ${planType}`, amount: prices[planType] * 100, currency: 'INR' },
        notes: [],
      },
      SANDBOX_PLAN_IDS[planType],
    );
  }
}

import type { ProcessorPlanIds } from '../../core/plan-ids';

/**
 * The plans a sandbox started with `subscriptionPlans` has from the start (`npm run dev`, the browser
 * test), under fixed ids, so the service can be configured with them before the sandbox answers.
 * `premium plans sync` against such a sandbox finds them.
 */
export const SANDBOX_PLAN_IDS = {
  Monthly: 'plan_SandboxMonthly',
  Yearly: 'plan_SandboxYearly',
} as const satisfies ProcessorPlanIds;

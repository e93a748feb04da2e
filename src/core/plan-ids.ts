import { SEED_SUBSCRIPTION_PLAN_TYPES, type SeedSubscriptionPlanType } from './plans';

/** `RAZORPAY_PLAN_IDS`: the Razorpay plan of each subscription plan, when configured. */
export type ProcessorPlanIds = Partial<Record<string, string>>;

/** Parses `Monthly=plan_…,Yearly=plan_…` (either may be missing; empty means none). */
export function parsePlanIds(text: string): ProcessorPlanIds {
  const ids: ProcessorPlanIds = {};
  for (const part of text
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const [name, id] = part.split('=').map((piece) => piece.trim());
    if (
      !SEED_SUBSCRIPTION_PLAN_TYPES.includes(name as SeedSubscriptionPlanType) ||
      !id ||
      !/^plan_\w+$/.test(id)
    ) {
      const expected = SEED_SUBSCRIPTION_PLAN_TYPES.map((plan) => `${plan}=plan_…`).join(',');
      throw new Error(`expected "${expected}", got "${text}"`);
    }
    ids[name as SeedSubscriptionPlanType] = id;
  }
  return ids;
}

export function formatPlanIds(ids: ProcessorPlanIds): string {
  return SEED_SUBSCRIPTION_PLAN_TYPES.filter((plan) => ids[plan])
    .map((plan) => `${plan}=${ids[plan]}`)
    .join(',');
}

import { AppError } from './errors';

/**
 * Every plan the service sells, and the only place one is named: types, route schemas, CLI choices, the
 * sandbox, subscriptions' Razorpay plans and the reports derive from these tables, so a catalog can
 * replace this module alone. The database's CHECK constraints on plan_type need a migration too.
 */
const FIXED_PLAN_DAYS = { Monthly: 30, Yearly: 365 } as const;
/** Bought by the month, at the Monthly plan's days and price; it never renews. */
export const CUSTOM_PLAN = 'Custom';
const CUSTOM_MONTH = 'Monthly' satisfies FixedPlanType;
export const DEFAULT_PLAN_TYPE = 'Monthly' satisfies PlanType;

export type FixedPlanType = keyof typeof FIXED_PLAN_DAYS;
export type PlanType = FixedPlanType | typeof CUSTOM_PLAN;
const FIXED_PLAN_TYPES = Object.keys(FIXED_PLAN_DAYS) as FixedPlanType[];
export const PLAN_TYPES: readonly PlanType[] = [...FIXED_PLAN_TYPES, CUSTOM_PLAN];

/** The plans that renew as a subscription: Razorpay's period, and its length in months (MRR divides by it). */
const RENEWALS = {
  Monthly: { period: 'monthly', months: 1 },
  Yearly: { period: 'yearly', months: 12 },
} as const satisfies Partial<Record<FixedPlanType, { period: string; months: number }>>;
export type SubscriptionPlanType = keyof typeof RENEWALS;
export const SUBSCRIPTION_PLAN_TYPES = Object.keys(RENEWALS) as readonly SubscriptionPlanType[];

export function renewalOf(planType: SubscriptionPlanType): (typeof RENEWALS)[SubscriptionPlanType] {
  return RENEWALS[planType];
}

export const CUSTOM_MONTHS = { min: 1, max: 36 } as const;
export const SLOTS_PER_PURCHASE = 1;

/** Prices in whole INR, from `PLAN_PRICES` (`Monthly=199,Yearly=1999`). Custom costs months × Monthly. */
export type PlanPrices = Record<FixedPlanType, number>;

export interface Plan {
  planType: PlanType;
  /** Only for Custom: 1..36. */
  months: number | null;
  durationDays: number;
}

export function parsePlanPrices(text: string): PlanPrices {
  const entries = text.split(',').map((part) => part.trim().split('='));
  const prices: Partial<Record<string, number>> = {};
  for (const [name, value] of entries) {
    const price = Number(value);
    if (!name || !isFixedPlan(name) || !Number.isInteger(price) || price < 1) {
      const expected = FIXED_PLAN_TYPES.map((plan) => `${plan}=<INR>`).join(',');
      throw new Error(`expected "${expected}" with whole amounts ≥ 1, got "${text}"`);
    }
    prices[name] = price;
  }
  if (FIXED_PLAN_TYPES.some((plan) => prices[plan] === undefined)) {
    throw new Error(`both ${FIXED_PLAN_TYPES.join(' and ')} prices are required, got "${text}"`);
  }
  return Object.fromEntries(FIXED_PLAN_TYPES.map((plan) => [plan, prices[plan]])) as PlanPrices;
}

function isFixedPlan(name: string): name is FixedPlanType {
  return (FIXED_PLAN_TYPES as string[]).includes(name);
}

/** Resolves a plan label (and, for Custom, a month count) into the plan it stands for. */
export function resolvePlan(planType: string, months?: number | null): Plan {
  if (planType !== CUSTOM_PLAN && months !== undefined && months !== null) {
    throw AppError.validation(
      'MONTHS_NOT_ALLOWED',
      `"months" applies to the Custom plan only, not ${planType}`,
    );
  }
  if (isFixedPlan(planType)) return { planType, months: null, durationDays: FIXED_PLAN_DAYS[planType] };
  if (planType !== CUSTOM_PLAN) {
    throw AppError.validation(
      'UNKNOWN_PLAN',
      `unknown plan "${planType}"; expected one of ${PLAN_TYPES.join(', ')}`,
    );
  }
  if (!Number.isInteger(months) || months! < CUSTOM_MONTHS.min || months! > CUSTOM_MONTHS.max) {
    throw AppError.validation(
      'INVALID_MONTHS',
      `a Custom plan needs "months", a whole number from ${CUSTOM_MONTHS.min} to ${CUSTOM_MONTHS.max}`,
    );
  }
  return { planType, months: months!, durationDays: months! * FIXED_PLAN_DAYS[CUSTOM_MONTH] };
}

/** The price in whole INR of a resolved plan. */
export function planPrice(plan: Plan, prices: PlanPrices): number {
  return plan.planType === CUSTOM_PLAN ? plan.months! * prices[CUSTOM_MONTH] : prices[plan.planType];
}

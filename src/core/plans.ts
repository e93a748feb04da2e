/**
 * What every plan shares, whatever the catalog (src/core/catalog) holds: the seed's plan labels that
 * create-order's `planType` still takes (the interface's contract), the Custom rule, PLAN_PRICES (which
 * seeds the catalog once), and how a plan's days map to Razorpay's billing period and to months (MRR).
 */
export const CUSTOM_PLAN = 'Custom';
/** Bought by the month: N × the default tier's Monthly plan, in price and days. It never renews. */
export const CUSTOM_MONTH_PLAN = 'Monthly';
export const DEFAULT_PLAN_TYPE = 'Monthly';
/** The seed's `planType` values of create-order; `plan` takes any catalog code. */
export const SEED_PLAN_TYPES = ['Monthly', 'Yearly', CUSTOM_PLAN] as const;
/** The seed's `planType` values of create-subscription. */
export const SEED_SUBSCRIPTION_PLAN_TYPES = ['Monthly', 'Yearly'] as const;
export type SeedPlanType = (typeof SEED_PLAN_TYPES)[number];
export type SeedSubscriptionPlanType = (typeof SEED_SUBSCRIPTION_PLAN_TYPES)[number];
/** A plan's code, or Custom. */
export type PlanType = string;
/** The tier of everything sold before the catalog, created by its migration. */
export const DEFAULT_TIER = 'premium';

export const CUSTOM_MONTHS = { min: 1, max: 36 } as const;
export const SLOTS_PER_PURCHASE = 1;

/** What a grant of a plan adds: its days of its tier. */
export interface Plan {
  planType: PlanType;
  /** Only for Custom: 1..36. */
  months: number | null;
  durationDays: number;
  tier: string;
}

/** The plan a sold row (an order, a subscription, a code batch) keeps: what its grant adds. */
export function planOf(sold: Plan): Plan {
  return { planType: sold.planType, months: sold.months, durationDays: sold.durationDays, tier: sold.tier };
}

/** `PLAN_PRICES` (`Monthly=199,Yearly=1999`), whole INR: the seed's prices, which the catalog starts from. */
export type PlanPrices = Record<SeedSubscriptionPlanType, number>;

export function parsePlanPrices(text: string): PlanPrices {
  const entries = text.split(',').map((part) => part.trim().split('='));
  const prices: Partial<Record<string, number>> = {};
  const names: readonly string[] = SEED_SUBSCRIPTION_PLAN_TYPES;
  for (const [name, value] of entries) {
    const price = Number(value);
    if (!name || !names.includes(name) || !Number.isInteger(price) || price < 1) {
      const expected = SEED_SUBSCRIPTION_PLAN_TYPES.map((plan) => `${plan}=<INR>`).join(',');
      throw new Error(`expected "${expected}" with whole amounts ≥ 1, got "${text}"`);
    }
    prices[name] = price;
  }
  if (SEED_SUBSCRIPTION_PLAN_TYPES.some((plan) => prices[plan] === undefined)) {
    throw new Error(`both ${SEED_SUBSCRIPTION_PLAN_TYPES.join(' and ')} prices are required, got "${text}"`);
  }
  return { Monthly: prices.Monthly!, Yearly: prices.Yearly! };
}

const YEAR_DAYS = 365;
const MONTH_DAYS = 30;
const WEEK_DAYS = 7;

/**
 * Razorpay bills a plan every `interval` periods: a renewing plan of D days renews yearly when D is whole
 * years, else monthly when whole months (30 days), else weekly, else daily (Razorpay wants 7 or more).
 */
export function billingPeriodOf(days: number): {
  period: 'yearly' | 'monthly' | 'weekly' | 'daily';
  interval: number;
} {
  if (days % YEAR_DAYS === 0) return { period: 'yearly', interval: days / YEAR_DAYS };
  if (days % MONTH_DAYS === 0) return { period: 'monthly', interval: days / MONTH_DAYS };
  if (days % WEEK_DAYS === 0) return { period: 'weekly', interval: days / WEEK_DAYS };
  return { period: 'daily', interval: days };
}

/** How many months a cycle of `days` lasts, for MRR: 365 days are 12 months, else 30 days a month. */
export function monthsOf(days: number): number {
  return days % YEAR_DAYS === 0 ? (days / YEAR_DAYS) * 12 : days / MONTH_DAYS;
}

/** monthsOf as SQL, of the column (or expression) `days`. */
export function monthsOfSql(days: string): string {
  return `(CASE WHEN ${days} % ${YEAR_DAYS} = 0 THEN ${days} / ${YEAR_DAYS} * 12.0 ELSE ${days} / ${MONTH_DAYS}.0 END)`;
}

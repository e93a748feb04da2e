import { AppError } from './errors';

export const PLAN_TYPES = ['Monthly', 'Yearly', 'Custom'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const CUSTOM_MONTHS = { min: 1, max: 36 } as const;
export const SLOTS_PER_PURCHASE = 1;
const DAYS_PER_MONTH = 30;
const DAYS_PER_YEAR = 365;

/** Prices in whole INR, from `PLAN_PRICES` (`Monthly=199,Yearly=1999`). Custom costs months × Monthly. */
export interface PlanPrices {
  Monthly: number;
  Yearly: number;
}

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
    if (!name || !['Monthly', 'Yearly'].includes(name) || !Number.isInteger(price) || price < 1) {
      throw new Error(`expected "Monthly=<INR>,Yearly=<INR>" with whole amounts ≥ 1, got "${text}"`);
    }
    prices[name] = price;
  }
  if (prices.Monthly === undefined || prices.Yearly === undefined) {
    throw new Error(`both Monthly and Yearly prices are required, got "${text}"`);
  }
  return { Monthly: prices.Monthly, Yearly: prices.Yearly };
}

/** Resolves a plan label (and, for Custom, a month count) into the plan it stands for. */
export function resolvePlan(planType: string, months?: number | null): Plan {
  if (planType !== 'Custom' && months !== undefined && months !== null) {
    throw AppError.validation(
      'MONTHS_NOT_ALLOWED',
      `"months" applies to the Custom plan only, not ${planType}`,
    );
  }
  switch (planType) {
    case 'Monthly':
      return { planType, months: null, durationDays: DAYS_PER_MONTH };
    case 'Yearly':
      return { planType, months: null, durationDays: DAYS_PER_YEAR };
    case 'Custom':
      if (!Number.isInteger(months) || months! < CUSTOM_MONTHS.min || months! > CUSTOM_MONTHS.max) {
        throw AppError.validation(
          'INVALID_MONTHS',
          `a Custom plan needs "months", a whole number from ${CUSTOM_MONTHS.min} to ${CUSTOM_MONTHS.max}`,
        );
      }
      return { planType, months: months!, durationDays: months! * DAYS_PER_MONTH };
    default:
      throw AppError.validation(
        'UNKNOWN_PLAN',
        `unknown plan "${planType}"; expected one of ${PLAN_TYPES.join(', ')}`,
      );
  }
}

/** The price in whole INR of a resolved plan. */
export function planPrice(plan: Plan, prices: PlanPrices): number {
  return plan.planType === 'Custom' ? plan.months! * prices.Monthly : prices[plan.planType];
}

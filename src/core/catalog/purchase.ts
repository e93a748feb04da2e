import type { Sequelize, Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import {
  CUSTOM_MONTH_PLAN,
  CUSTOM_MONTHS,
  CUSTOM_PLAN,
  DEFAULT_PLAN_TYPE,
  DEFAULT_TIER,
  type Plan,
} from '../plans';
import type { Category } from '../premium/types';
import { unknownPlan } from './manage-plans';
import { FIND_PLAN } from './sql';
import { scopeAllows, type CatalogPlan } from './types';

/** What one purchase of a plan costs and gives, from one read of the catalog. */
export interface PricedPlan extends Plan {
  name: string;
  pricePaise: number;
  slots: number;
  renews: boolean;
  /** The Razorpay plan a new subscription of it uses (null: none configured). */
  processorPlanId: string | null;
  trialDays: number;
}

export interface PlanChoice {
  /** A catalog plan code. */
  plan?: string | null;
  /** The seed's label (Monthly, Yearly, Custom); `plan` wins when both name the same plan. */
  planType?: string | null;
  /** Only for Custom. */
  months?: number | null;
}

/**
 * The plan a buyer or an operator chose, priced from one read of the catalog, so an order is priced by
 * exactly one catalog state however prices change meanwhile. An unknown code is 400 UNKNOWN_PLAN, an
 * archived one 409 PLAN_ARCHIVED (`forSale`; an operator's grant or code may name it), a plan that cannot
 * be bought for `category` 400 PLAN_SCOPE_MISMATCH. Custom is N × the default tier's Monthly plan.
 */
export async function resolvePurchase(
  runner: Sequelize | Transaction,
  choice: PlanChoice,
  options: {
    category?: Category;
    forSale?: boolean;
    processorPlanIds?: Partial<Record<string, string>>;
  } = {},
): Promise<PricedPlan> {
  const code = chosenCode(choice);
  const custom = code === CUSTOM_PLAN;
  if (!custom && choice.months !== undefined && choice.months !== null) {
    throw AppError.validation('MONTHS_NOT_ALLOWED', `"months" applies to the Custom plan only, not ${code}`);
  }
  const [row] = await selectRows<CatalogPlan>(runner, FIND_PLAN, [custom ? CUSTOM_MONTH_PLAN : code]);
  if (!row || (custom && row.tier !== DEFAULT_TIER)) {
    throw custom
      ? AppError.conflict('PLAN_ARCHIVED', 'Custom is no longer sold: its Monthly plan is gone')
      : unknownPlan(code);
  }
  if ((options.forSale ?? true) && row.status === 'archived') {
    throw AppError.conflict(
      'PLAN_ARCHIVED',
      `plan ${custom ? `${CUSTOM_PLAN} (its ${CUSTOM_MONTH_PLAN})` : code} is no longer sold`,
    );
  }
  if (options.category && !scopeAllows(row.scope, options.category)) {
    throw AppError.validation(
      'PLAN_SCOPE_MISMATCH',
      `plan ${code} is sold for ${row.scope === 'USER' ? 'a user' : 'a server'}, not ${options.category === 'USER' ? 'a user' : 'a server'}`,
    );
  }
  const months = custom ? customMonths(choice.months) : null;
  return {
    planType: code,
    months,
    durationDays: months ? months * row.days : row.days,
    tier: row.tier,
    name: custom ? `${CUSTOM_PLAN} (${months} × ${row.name})` : row.name,
    pricePaise: months ? months * row.pricePaise : row.pricePaise,
    slots: row.slots,
    renews: !custom && row.renews,
    processorPlanId: custom ? null : (row.processorPlanId ?? options.processorPlanIds?.[code] ?? null),
    trialDays: custom ? 0 : row.trialDays,
  };
}

function chosenCode(choice: PlanChoice): string {
  if (choice.plan && choice.planType && choice.plan !== choice.planType) {
    throw AppError.validation(
      'PLAN_CONFLICT',
      `"plan" (${choice.plan}) and "planType" (${choice.planType}) name different plans; send one`,
    );
  }
  return choice.plan ?? choice.planType ?? DEFAULT_PLAN_TYPE;
}

function customMonths(months: number | null | undefined): number {
  if (!Number.isInteger(months) || months! < CUSTOM_MONTHS.min || months! > CUSTOM_MONTHS.max) {
    throw AppError.validation(
      'INVALID_MONTHS',
      `a Custom plan needs "months", a whole number from ${CUSTOM_MONTHS.min} to ${CUSTOM_MONTHS.max}`,
    );
  }
  return months!;
}

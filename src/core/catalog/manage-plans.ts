import type { Sequelize } from 'sequelize';
import { brokenConstraint, selectRows } from '../db/database';
import { AppError } from '../errors';
import { paiseOfRupees, rupeesOfPaise } from '../money';
import { billingPeriodOf, CUSTOM_PLAN, SLOTS_PER_PURCHASE } from '../plans';
import type { RazorpayClient } from '../processor/razorpay-client';
import {
  ARCHIVE_PLAN,
  FIND_PLAN,
  INSERT_PLAN,
  LIST_PLANS,
  LOCK_PLAN,
  RENAME_PLAN,
  RESTORE_PLAN,
  SET_PLAN_PRICE,
  SET_PLAN_PROCESSOR_ID,
  TIER_EXISTS,
} from './sql';
import { assertName, unknownTier } from './tiers';
import { PLAN_SCOPES, type CatalogPlan, type PlanScope } from './types';

const PLAN_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;
const MAX_DAYS = 3650;
const MAX_SLOTS = 100;
const MAX_TRIAL_DAYS = 365;
/**
 * Amounts are integer paise (at most ₹2,14,74,836.47): a price of at most ₹5,00,000 keeps the largest
 * order, a Custom plan of 36 months, within that.
 */
const MAX_PRICE_PAISE = 50_000_000;
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

export async function listPlans(
  sequelize: Sequelize,
  options: { includeArchived?: boolean } = {},
): Promise<CatalogPlan[]> {
  return selectRows<CatalogPlan>(sequelize, LIST_PLANS, [options.includeArchived ?? false]);
}

export async function findPlan(sequelize: Sequelize, code: string): Promise<CatalogPlan> {
  const [plan] = await selectRows<CatalogPlan>(sequelize, FIND_PLAN, [code]);
  if (!plan) throw unknownPlan(code);
  return plan;
}

export interface NewPlan {
  code: string;
  name?: string;
  tier: string;
  scope: PlanScope;
  days: number;
  /** INR, whole or with paise (`249.50`). */
  price: number | string;
  slots?: number;
  renews?: boolean;
  trialDays?: number;
}

/**
 * Adds a plan at the end of the list. A renewing plan gets its Razorpay plan first, so a plan that renews
 * never exists without one; when Razorpay fails, nothing is written.
 */
export async function addPlan(
  sequelize: Sequelize,
  processor: RazorpayClient | null,
  plan: NewPlan,
): Promise<CatalogPlan> {
  const checked = checkNewPlan(plan);
  if ((await selectRows(sequelize, TIER_EXISTS, [plan.tier])).length === 0) throw unknownTier(plan.tier);
  const [existing] = await selectRows(sequelize, FIND_PLAN, [plan.code]);
  if (existing) throw planExists(plan.code);
  const processorPlanId = checked.renews
    ? await createProcessorPlan(
        needProcessor(processor),
        checked.name,
        checked.days,
        checked.pricePaise,
        plan.code,
      )
    : null;
  try {
    await sequelize.transaction(async (transaction) => {
      await selectRows(transaction, INSERT_PLAN, [
        plan.code,
        checked.name,
        plan.tier,
        plan.scope,
        checked.days,
        checked.pricePaise,
        checked.slots,
        checked.renews,
        checked.trialDays,
      ]);
      if (processorPlanId) await selectRows(transaction, SET_PLAN_PROCESSOR_ID, [plan.code, processorPlanId]);
    });
  } catch (error) {
    if (brokenConstraint(error, UNIQUE_VIOLATION) === 'plans_pkey') throw planExists(plan.code);
    if (brokenConstraint(error, FOREIGN_KEY_VIOLATION) !== null) throw unknownTier(plan.tier);
    throw error;
  }
  return findPlan(sequelize, plan.code);
}

/**
 * A new price for orders and subscriptions created from now on. Orders already created keep theirs; a
 * renewing plan gets a new Razorpay plan at the new price, and running subscriptions keep the one they
 * were created with.
 */
export async function setPlanPrice(
  sequelize: Sequelize,
  processor: RazorpayClient | null,
  code: string,
  price: number | string,
): Promise<{ before: CatalogPlan; after: CatalogPlan }> {
  const pricePaise = checkedPrice(price);
  const before = await findPlan(sequelize, code);
  const processorPlanId =
    before.renews && before.pricePaise !== pricePaise
      ? await createProcessorPlan(needProcessor(processor), before.name, before.days, pricePaise, code)
      : before.processorPlanId;
  await sequelize.transaction(async (transaction) => {
    const [locked] = await selectRows<CatalogPlan>(transaction, LOCK_PLAN, [code]);
    if (!locked) throw unknownPlan(code);
    await selectRows(transaction, SET_PLAN_PRICE, [code, pricePaise, processorPlanId]);
  });
  return { before, after: await findPlan(sequelize, code) };
}

/** No longer sold: create-order and create-subscription refuse it (409 PLAN_ARCHIVED); what was sold stays. */
export async function archivePlan(sequelize: Sequelize, code: string): Promise<CatalogPlan> {
  const plan = await findPlan(sequelize, code);
  if (plan.status === 'archived')
    throw AppError.conflict('PLAN_ARCHIVED', `plan ${code} is archived already`);
  await selectRows(sequelize, ARCHIVE_PLAN, [code]);
  return findPlan(sequelize, code);
}

/** On sale again, at its price and (renewing) with its Razorpay plan, as it was before it was archived. */
export async function restorePlan(sequelize: Sequelize, code: string): Promise<CatalogPlan> {
  const plan = await findPlan(sequelize, code);
  if (plan.status === 'active') throw AppError.conflict('PLAN_ACTIVE', `plan ${code} is on sale already`);
  await selectRows(sequelize, RESTORE_PLAN, [code]);
  return findPlan(sequelize, code);
}

/**
 * The name the store, invoices of new sales and reports show. A renewing plan's Razorpay plan keeps the
 * name it was created with (Razorpay plans cannot be changed); buyers see ours.
 */
export async function renamePlan(sequelize: Sequelize, code: string, name: string): Promise<CatalogPlan> {
  assertName(name);
  await findPlan(sequelize, code);
  await selectRows(sequelize, RENAME_PLAN, [code, name]);
  return findPlan(sequelize, code);
}

/** Records the Razorpay plan `premium plans sync` found or created for a renewing plan. */
export async function setProcessorPlanId(
  sequelize: Sequelize,
  code: string,
  processorPlanId: string,
): Promise<void> {
  await selectRows(sequelize, SET_PLAN_PROCESSOR_ID, [code, processorPlanId]);
}

export function unknownPlan(code: string): AppError {
  return AppError.validation('UNKNOWN_PLAN', `no plan "${code}" in the catalog`);
}

function planExists(code: string): AppError {
  return AppError.conflict('PLAN_EXISTS', `a plan "${code}" exists already`);
}

/** INR with at most two decimals, from ₹1 to MAX_PRICE_PAISE, as paise: checked before any SQL sees it. */
export function checkedPrice(price: number | string): number {
  let paise: number | null;
  try {
    paise = paiseOfRupees(price);
  } catch {
    paise = null;
  }
  if (paise === null || paise > MAX_PRICE_PAISE)
    throw AppError.validation(
      'INVALID_PRICE',
      `a price is in INR, from ₹1 to ${rupeesOfPaise(MAX_PRICE_PAISE)} with at most two decimals (like 249 or 249.50), not ${price}`,
    );
  return paise;
}

function checkNewPlan(plan: NewPlan) {
  if (!PLAN_CODE.test(plan.code) || plan.code === CUSTOM_PLAN) {
    throw AppError.validation(
      'INVALID_PLAN_CODE',
      `a plan code is 1 to 32 letters, digits, dashes or underscores, and not "${CUSTOM_PLAN}"; got "${plan.code}"`,
    );
  }
  const name = plan.name ?? plan.code;
  assertName(name);
  if (!(PLAN_SCOPES as readonly string[]).includes(plan.scope)) {
    throw AppError.validation(
      'INVALID_SCOPE',
      `a scope is one of ${PLAN_SCOPES.join(', ')}, not "${plan.scope}"`,
    );
  }
  const days = plan.days;
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    throw AppError.validation('INVALID_DAYS', `a plan runs 1 to ${MAX_DAYS} whole days, not ${days}`);
  }
  const slots = plan.slots ?? 1;
  if (
    !Number.isInteger(slots) ||
    slots < 1 ||
    slots > MAX_SLOTS ||
    (slots !== SLOTS_PER_PURCHASE && plan.scope !== 'SERVER')
  ) {
    throw AppError.validation(
      'INVALID_SLOTS',
      `slots are 1, or 2 to ${MAX_SLOTS} for a SERVER plan (a bundle); got ${slots} for scope ${plan.scope}`,
    );
  }
  const renews = plan.renews ?? false;
  const trialDays = plan.trialDays ?? 0;
  if (
    !Number.isInteger(trialDays) ||
    trialDays < 0 ||
    trialDays > MAX_TRIAL_DAYS ||
    (trialDays > 0 && !renews)
  ) {
    throw AppError.validation(
      'INVALID_TRIAL_DAYS',
      `trial days are 0 to ${MAX_TRIAL_DAYS}, and only a renewing plan (--renews) has a trial`,
    );
  }
  if (renews && billingPeriodOf(days).period === 'daily' && days < 7) {
    throw AppError.validation(
      'INVALID_DAYS',
      'a renewing plan runs at least 7 days (Razorpay bills daily plans every 7 days or more)',
    );
  }
  return { name, days, slots, renews, trialDays, pricePaise: checkedPrice(plan.price) };
}

function needProcessor(processor: RazorpayClient | null): RazorpayClient {
  if (!processor) {
    throw AppError.unavailable(
      'PROCESSOR_NOT_CONFIGURED',
      'a renewing plan needs Razorpay keys to create its Razorpay plan',
    );
  }
  return processor;
}

async function createProcessorPlan(
  processor: RazorpayClient,
  name: string,
  days: number,
  pricePaise: number,
  code: string,
): Promise<string> {
  const created = await processor.createPlan({
    ...billingPeriodOf(days),
    item: { name, amount: pricePaise, currency: 'INR' },
    notes: { planType: code },
  });
  return created.id;
}

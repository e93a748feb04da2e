import { featureText } from '../core/catalog/features';
import type { CatalogPlan, Tier } from '../core/catalog/types';
import { rupeesOfPaise } from '../core/money';
import { SLOTS_PER_PURCHASE } from '../core/plans';
import { table } from './format';

/** Text shared by the catalog's commands (`premium tiers …`, `premium plans …`). */

/** A plan as the catalog's commands print it with `--json`: the row, and its price in INR beside paise. */
export type PlanDocument = CatalogPlan & { price: number };

export function planDocument(plan: CatalogPlan): PlanDocument {
  return { ...plan, price: plan.pricePaise / 100 };
}

export function featuresLabel(features: Tier['features']): string {
  return Object.keys(features).length === 0 ? '-' : featureText(features);
}

export function tiersTable(tiers: Tier[]): string {
  if (tiers.length === 0) return 'No tiers.';
  return table(
    ['TIER', 'NAME', 'RANK', 'FEATURES'],
    tiers.map((tier) => [tier.code, tier.name, String(tier.rank), featuresLabel(tier.features)]),
  );
}

/** `plan_…`, `none yet (premium plans sync)` for a renewing plan without one, `-` for a one-off plan. */
function processorPlanLabel(plan: CatalogPlan): string {
  if (!plan.renews) return '-';
  return plan.processorPlanId ?? 'none yet (premium plans sync)';
}

export function plansTable(plans: CatalogPlan[]): string {
  if (plans.length === 0) return 'No plans.';
  return table(
    ['PLAN', 'NAME', 'TIER', 'SCOPE', 'DAYS', 'PRICE', 'SLOTS', 'RENEWS', 'TRIAL', 'STATUS', 'RAZORPAY PLAN'],
    plans.map((plan) => [
      plan.code,
      plan.name,
      plan.tier,
      plan.scope,
      String(plan.days),
      rupeesOfPaise(plan.pricePaise),
      String(plan.slots),
      plan.renews ? 'yes' : 'no',
      plan.trialDays > 0 ? `${plan.trialDays}d` : '-',
      plan.status,
      processorPlanLabel(plan),
    ]),
  );
}

const SCOPES = { USER: 'a user', SERVER: 'a server', ANY: 'a user or a server' } as const;

/** `tier pro, for a server, 30 days, ₹299.00, 3 servers` */
export function planSummary(plan: CatalogPlan): string {
  return [
    `tier ${plan.tier}`,
    `for ${SCOPES[plan.scope]}`,
    `${plan.days} ${plan.days === 1 ? 'day' : 'days'}`,
    rupeesOfPaise(plan.pricePaise),
    ...(plan.slots !== SLOTS_PER_PURCHASE ? [`${plan.slots} servers a purchase`] : []),
  ].join(', ');
}

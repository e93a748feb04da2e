import type { Sequelize } from 'sequelize';
import { rupeesOfPaise } from '../money';
import { SEED_SUBSCRIPTION_PLAN_TYPES, type PlanPrices } from '../plans';
import { listPlans } from './manage-plans';

/**
 * Where PLAN_PRICES disagrees with the catalog, one sentence each: PLAN_PRICES seeded the catalog once and
 * the catalog rules since, so a disagreement is worth a warning (a setting someone expects to matter),
 * never a second price.
 */
export async function seedPriceDisagreements(
  sequelize: Sequelize,
  planPrices: PlanPrices,
): Promise<string[]> {
  const plans = await listPlans(sequelize, { includeArchived: true });
  return SEED_SUBSCRIPTION_PLAN_TYPES.flatMap((code) => {
    const plan = plans.find((each) => each.code === code);
    const configured = planPrices[code] * 100;
    if (!plan || plan.pricePaise === configured) return [];
    return [
      `PLAN_PRICES says ${code}=${planPrices[code]} but the catalog sells it at ${rupeesOfPaise(plan.pricePaise)}; the catalog's price applies (\`premium plans set-price ${code} <INR>\` changes it)`,
    ];
  });
}

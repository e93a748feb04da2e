import type { Sequelize } from 'sequelize';
import { listPlans } from './manage-plans';
import { listTiers } from './tiers';
import type { Features, PlanScope } from './types';

export interface PublicCatalog {
  tiers: { code: string; name: string; rank: number; features: Features }[];
  plans: {
    code: string;
    name: string;
    tier: string;
    scope: PlanScope;
    days: number;
    /** INR, with paise as decimals. */
    price: number;
    currency: 'INR';
    slots: number;
    renews: boolean;
    trialDays: number;
  }[];
}

/** `GET /api/plans`: the tiers and the active plans, in `position` order. */
export async function publicCatalog(sequelize: Sequelize): Promise<PublicCatalog> {
  const [tiers, plans] = await Promise.all([listTiers(sequelize), listPlans(sequelize)]);
  return {
    tiers: tiers.map(({ code, name, rank, features }) => ({ code, name, rank, features })),
    plans: plans.map((plan) => ({
      code: plan.code,
      name: plan.name,
      tier: plan.tier,
      scope: plan.scope,
      days: plan.days,
      price: plan.pricePaise / 100,
      currency: plan.currency,
      slots: plan.slots,
      renews: plan.renews,
      trialDays: plan.trialDays,
    })),
  };
}

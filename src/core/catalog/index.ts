export {
  addPlan,
  archivePlan,
  findPlan,
  listPlans,
  renamePlan,
  restorePlan,
  setPlanPrice,
  setProcessorPlanId,
  unknownPlan,
} from './manage-plans';
export type { NewPlan } from './manage-plans';
export { publicCatalog, type PublicCatalog } from './public-catalog';
export { resolvePurchase, type PlanChoice, type PricedPlan } from './purchase';
export { featureText, parseFeature } from './features';
export {
  addTier,
  listTiers,
  changeTier,
  setTierFeatures,
  unknownTier,
  type NewTier,
  type TierChange,
} from './tiers';
export { PLAN_SCOPES, scopeAllows } from './types';
export type { CatalogPlan, Features, FeatureValue, PlanScope, Tier } from './types';
export { seedPriceDisagreements } from './seed-prices';
export { tierDailyPrice, type TierPrice } from './daily-price';

import type { Core } from '..';
import { resolvePurchase, tierDailyPrice, unknownTier, type PricedPlan } from '../catalog';
import { AppError } from '../errors';
import { targetGuild } from '../identity/access';
import type { User } from '../models';
import { isBundle } from '../purchase-kinds';
import { heldDaysOf } from '../premium/convert';
import type { Category } from '../premium/types';
import { subscriptionCycle, type SubscriptionCycle } from '../subscriptions/cycle-days';

/** `upgrade` of quote and create-order: the buyer's days of `fromTier` turned into `toPlan`'s tier. */
export interface UpgradeChoice {
  fromTier: string;
  toPlan: string;
  /** A subscription switch's (orders/subscription-change.ts): the rest of this subscription's cycle instead. */
  subscriptionId?: string | null;
}

/** Razorpay's least amount, and the service's: ₹1. */
const LEAST_PAISE = 100;

export interface PricedUpgrade {
  /** What the order keeps: `toPlan`'s code and tier, the days converted and the price of converting them. */
  plan: PricedPlan;
  fromTier: string;
  guildId: string | null;
  /** The subscription whose cycle it converts, or null for the buyer's own purchases. */
  subscriptionId: string | null;
}

/**
 * Prices the upgrade of every day of `fromTier` the buyer holds on the target through their own one-off
 * purchases (docs/payments.md, "The upgrade kind"): (the higher daily price − the lower) × those days,
 * in paise, rounded, at least ₹1. Refused: a guild the buyer does not manage (403), a plan or tier
 * the catalog does not sell (400 UNKNOWN_PLAN, UNKNOWN_TIER), a bundle plan or a tier not above
 * `fromTier` (400 NOT_AN_UPGRADE), no such days (409 NO_DAYS_TO_UPGRADE, or BUNDLE_DAYS when the only
 * ones are a bundle's, a subscription's or a trial's).
 */
export async function priceUpgrade(
  core: Core,
  buyer: User,
  target: { category: Category; guildId: string | null },
  choice: UpgradeChoice,
): Promise<PricedUpgrade> {
  const guildId = await targetGuild(buyer, target.category, target.guildId);
  const plan = await resolvePurchase(core.sequelize, { plan: choice.toPlan }, { category: target.category });
  const [from, to] = await Promise.all([
    tierDailyPrice(core.sequelize, choice.fromTier, plan.durationDays),
    tierDailyPrice(core.sequelize, plan.tier, plan.durationDays),
  ]);
  if (!from) throw unknownTier(choice.fromTier);
  if (isBundle(plan) || !to || to.rank <= from.rank) {
    throw AppError.validation(
      'NOT_AN_UPGRADE',
      `plan ${plan.planType} (tier ${plan.tier}) is not a one-server plan of a tier above ${choice.fromTier}`,
    );
  }
  const cycle = choice.subscriptionId
    ? await cycleOf(core, buyer, choice.subscriptionId, choice.fromTier)
    : null;
  const held = await core.sequelize.transaction((transaction) =>
    heldDaysOf(
      transaction,
      { category: target.category, providerId: buyer.providerId, guildId },
      choice.fromTier,
      cycle?.grantIds,
    ),
  );
  if (held.days === 0) throw noDays(choice.fromTier, held.othersHeld);
  const higherDaily = plan.pricePaise / plan.durationDays;
  // A cycle is priced against what its days cost the buyer, and for its own days: its grace is not sold.
  const lowerDaily = cycle?.dailyPaise ?? from.dailyPaise ?? 0;
  const days = cycle ? Math.min(held.days, cycle.daysLeft) : held.days;
  const pricePaise = Math.max(LEAST_PAISE, Math.round((higherDaily - lowerDaily) * days));
  return {
    plan: { ...plan, months: null, durationDays: held.days, pricePaise, renews: false, trialDays: 0 },
    fromTier: choice.fromTier,
    guildId,
    subscriptionId: choice.subscriptionId ?? null,
  };
}

/** The running cycle of the buyer's subscription of `fromTier`: 409 NO_DAYS_TO_UPGRADE when there is none. */
async function cycleOf(
  core: Core,
  buyer: User,
  subscriptionId: string,
  fromTier: string,
): Promise<SubscriptionCycle> {
  const cycle = await subscriptionCycle(core.sequelize, subscriptionId);
  if (!cycle || cycle.buyerUserId !== buyer.id || cycle.tier !== fromTier) throw noDays(fromTier, false);
  return cycle;
}

function noDays(fromTier: string, othersHeld: boolean): AppError {
  return othersHeld
    ? AppError.conflict(
        'BUNDLE_DAYS',
        `your days of ${fromTier} here are a bundle's, a subscription's or a trial's: they are not upgradable (a bundle moves by unbind and bind)`,
      )
    : AppError.conflict('NO_DAYS_TO_UPGRADE', `you hold no days of ${fromTier} here to upgrade`);
}

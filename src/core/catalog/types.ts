import type { Category } from '../premium/types';

/** A feature's value: a switch, a limit or a setting the bot reads. */
export type FeatureValue = boolean | number | string;
export type Features = Record<string, FeatureValue>;

export interface Tier {
  code: string;
  name: string;
  /** Unique; higher is more, and runs first (docs/catalog.md). */
  rank: number;
  features: Features;
}

export const PLAN_SCOPES = ['USER', 'SERVER', 'ANY'] as const;
export type PlanScope = (typeof PLAN_SCOPES)[number];

export interface CatalogPlan {
  code: string;
  name: string;
  tier: string;
  /** Who it is sold for: a user, a server, or either (the buyer picks). */
  scope: PlanScope;
  days: number;
  pricePaise: number;
  currency: 'INR';
  /** Servers covered by one purchase: 1, or more for a bundle. */
  slots: number;
  renews: boolean;
  /** The Razorpay plan new subscriptions of it use; running ones keep the one they were created with. */
  processorPlanId: string | null;
  trialDays: number;
  status: 'active' | 'archived';
  position: number;
}

/** Whether `plan` may be bought for `category`. */
export function scopeAllows(scope: PlanScope, category: Category): boolean {
  return scope === 'ANY' || scope === category;
}

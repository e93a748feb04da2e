import type { PricedPlan } from '../catalog';
import type { OfferRequest } from '../offers';
import type { Billing } from '../invoices';
import type { Category } from '../premium/types';

/** What a buyer orders: the plan, for themselves (USER) or for a guild (SERVER). */
export interface OrderTarget {
  buyerUserId: number;
  category: Category;
  guildId: string | null;
  /** As the catalog priced it when the order was asked for: the order keeps it. */
  plan: PricedPlan;
  /** The offer the buyer typed, reserved with a new order. */
  offer: OfferRequest | null;
  /** What the order charges, and the offer that lowered it: an unpaid order is handed out again only for the same. */
  amountPaise: number;
  offerId: number | null;
  /** Who the invoice is made out to: an unpaid order is handed out again only for the same billing. */
  billing: Billing;
  /** An upgrade's order (orders/upgrade.ts): the tier whose days it converts; null for any other. */
  upgradeFromTier: string | null;
  /** A subscription switch's upgrade: the subscription whose cycle it converts; null for any other. */
  upgradeSubscriptionId: string | null;
  /** A gift's order (docs/codes.md): it buys a gift code of the plan, for nobody yet. */
  gift: boolean;
}

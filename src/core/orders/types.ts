import type { PricedPlan } from '../catalog';
import type { Billing } from '../invoices';
import type { Category } from '../premium/types';

/** What a buyer orders: the plan, for themselves (USER) or for a guild (SERVER). */
export interface OrderTarget {
  buyerUserId: number;
  category: Category;
  guildId: string | null;
  /** As the catalog priced it when the order was asked for: the order keeps it. */
  plan: PricedPlan;
  /** Who the invoice is made out to: an unpaid order is handed out again only for the same billing. */
  billing: Billing;
}

import type { Plan } from '../plans';
import type { Category } from '../premium/types';

/** What a buyer orders: the plan, for themselves (USER) or for a guild (SERVER). */
export interface OrderTarget {
  buyerUserId: number;
  category: Category;
  guildId: string | null;
  plan: Plan;
}

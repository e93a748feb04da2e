import type { Category } from '../premium/types';

/**
 * What was sold, as an invoice's line says it: `Premium, plan Monthly: 30 days for server Chill Zone
 * (1234…)`, the name as the buyer's sign-in saw it (the id alone when unknown).
 */
export function describePurchase(purchase: {
  tier: string;
  planType: string;
  durationDays: number;
  category: Category;
  guildId: string | null;
  guildName?: string | null;
  subscription?: boolean;
  /** A gift code of the plan (docs/codes.md), for whoever redeems it. */
  gift?: boolean;
}): string {
  const tier = purchase.tier.charAt(0).toUpperCase() + purchase.tier.slice(1);
  const server = purchase.guildName ? `${purchase.guildName} (${purchase.guildId})` : purchase.guildId;
  const target = purchase.category === 'SERVER' ? `for server ${server}` : 'for your account';
  const renewal = purchase.subscription ? ', subscription' : '';
  if (purchase.gift) return `Gift code of ${tier}, plan ${purchase.planType}: ${purchase.durationDays} days`;
  return `${tier}, plan ${purchase.planType}${renewal}: ${purchase.durationDays} days ${target}`;
}

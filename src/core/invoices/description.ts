import type { Category } from '../premium/types';

/** What was sold, as an invoice's line says it: `Premium, plan Monthly: 30 days for server 1234…`. */
export function describePurchase(purchase: {
  tier: string;
  planType: string;
  durationDays: number;
  category: Category;
  guildId: string | null;
  subscription?: boolean;
}): string {
  const tier = purchase.tier.charAt(0).toUpperCase() + purchase.tier.slice(1);
  const target = purchase.category === 'SERVER' ? `for server ${purchase.guildId}` : 'for your account';
  const renewal = purchase.subscription ? ', subscription' : '';
  return `${tier}, plan ${purchase.planType}${renewal}: ${purchase.durationDays} days ${target}`;
}

import type { SubscriptionView } from '../core/subscriptions/views';
import { table, time } from './format';

/** An ISO time of a view, as `time` renders dates. */
export function timeOf(iso: string | null): string {
  return time(iso === null ? null : new Date(iso));
}

function target(subscription: SubscriptionView): string {
  return subscription.guildId ? `guild ${subscription.guildId}` : 'USER';
}

/** Subscriptions as a table (`users show`, `subscriptions list`). */
export function subscriptionsTable(
  subscriptions: (SubscriptionView & { buyerProviderId?: string; buyerUsername?: string })[],
): string {
  if (subscriptions.length === 0) return 'None.';
  const withBuyer = subscriptions.some((subscription) => subscription.buyerProviderId !== undefined);
  return table(
    [
      'SUBSCRIPTION',
      'STATUS',
      'PLAN',
      'FOR',
      ...(withBuyer ? ['BUYER'] : []),
      'PAID',
      'CYCLE ENDS',
      'NEXT CHARGE',
    ],
    subscriptions.map((subscription) => [
      subscription.subscriptionId,
      subscription.cancelAtCycleEnd ? `${subscription.status} (cancelled at cycle end)` : subscription.status,
      subscription.planType,
      target(subscription),
      ...(withBuyer ? [`${subscription.buyerUsername} (${subscription.buyerProviderId})`] : []),
      String(subscription.paidCount),
      timeOf(subscription.currentEnd),
      timeOf(subscription.nextChargeAt),
    ]),
  );
}

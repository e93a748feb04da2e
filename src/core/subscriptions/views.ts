import type { Transaction } from 'sequelize';
import type { Subscription, SubscriptionStatus } from '../models';
import type { Category } from '../premium/types';
import { targetRecord } from './target-record';
import { trialOf, type TrialView } from './trials';

/** A subscription as its buyer and operators see it (times ISO 8601 UTC, or null). */
export interface SubscriptionView {
  subscriptionId: string;
  status: SubscriptionStatus;
  planType: string;
  category: Category;
  guildId: string | null;
  amount: number;
  currency: 'INR';
  currentStart: string | null;
  currentEnd: string | null;
  /** When the processor next charges (null once nothing more will be charged). */
  nextChargeAt: string | null;
  cancelAtCycleEnd: boolean;
  /** A card switch's plan, charged and granted from the next cycle (docs/subscriptions.md); else null. */
  pendingPlanType: string | null;
  /** A UPI switch's new subscription, which renews from this one's cycle end; else null. */
  replacedBy: string | null;
  /** Where the buyer authorises the mandate, while nobody has (a UPI switch's new one); else null. */
  shortUrl: string | null;
  paidCount: number;
  /** The expiry of the premium the subscription renews. */
  premiumExpiresAt: string | null;
  /** The trial before the first charge, when one was asked for (`refusedReason`: why none was given). */
  trial: TrialView | null;
  createdAt: string;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;
const ENDED = new Set<SubscriptionStatus>(['cancelled', 'completed', 'expired', 'halted']);

export async function describeSubscription(
  subscription: Subscription,
  transaction?: Transaction,
): Promise<SubscriptionView> {
  const record = await targetRecord(subscription, transaction);
  const charging = !ENDED.has(subscription.status) && !subscription.cancelAtCycleEnd;
  return {
    subscriptionId: subscription.processorSubscriptionId,
    status: subscription.status,
    planType: subscription.planType,
    category: subscription.category,
    guildId: subscription.guildId,
    amount: subscription.amountPaise / 100,
    currency: 'INR',
    currentStart: iso(subscription.currentStart),
    currentEnd: iso(subscription.currentEnd),
    nextChargeAt: charging ? iso(subscription.chargeAt ?? subscription.startAt) : null,
    cancelAtCycleEnd: subscription.cancelAtCycleEnd,
    pendingPlanType: subscription.pendingPlanType,
    replacedBy: subscription.replacedBy,
    shortUrl: subscription.status === 'created' ? subscription.shortUrl : null,
    paidCount: subscription.paidCount,
    premiumExpiresAt: iso(record?.expiresAt ?? null),
    trial:
      subscription.trialDays > 0
        ? await trialOf(transaction ?? subscription.sequelize, subscription.id)
        : null,
    createdAt: subscription.createdAt.toISOString(),
  };
}

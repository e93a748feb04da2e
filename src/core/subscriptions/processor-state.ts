import type { Transaction } from 'sequelize';
import { guildNameSeenBy } from '../identity/guild-name';
import { SLOTS_PER_PURCHASE } from '../plans';
import { isBundle } from '../purchase-kinds';
import { aggregateKeyFor, appendEvent } from '../premium/outbox';
import { announcedTier } from '../premium/records';
import { eventTypeFor } from '../premium/types';
import type { RazorpaySubscription } from '../processor/razorpay-client';
import type { SubscriptionStatus } from '../models';
import type { LockedSubscription } from './locked-subscription';
import { endGraceOfCancelled } from './cancelled-grace';
import { noticeBuyer, noticePurchase, recordNotice } from '../seller-notices';
import { messagePlan, recordMessage } from '../buyer-messages';
import { targetRecord } from './target-record';
import { boundGuildsOf } from '../bundles';

/** Once there, a subscription never comes back (Razorpay cannot renew or reactivate it). */
const TERMINAL = new Set(['cancelled', 'completed', 'expired']);
const FAILING = ['pending', 'halted'] as const;

function isFailing(status: SubscriptionStatus): status is (typeof FAILING)[number] {
  return (FAILING as readonly string[]).includes(status);
}

/** What the service keeps of the processor's subscription entity. */
export type SubscriptionState = Pick<
  RazorpaySubscription,
  'status' | 'current_start' | 'current_end' | 'charge_at' | 'paid_count'
>;

export function fromUnix(seconds: number | null | undefined): Date | null {
  return seconds === null || seconds === undefined ? null : new Date(seconds * 1000);
}

function later(a: Date | null, b: Date | null): Date | null {
  if (a === null || b === null) return a ?? b;
  return a > b ? a : b;
}

/** Where each status stands in a cycle, to order two views that agree on everything else. */
const STATUS_RANK: Record<SubscriptionStatus, number> = {
  created: 0,
  authenticated: 1,
  active: 2,
  pending: 3,
  halted: 4,
  paused: 5,
  cancelled: 6,
  completed: 6,
  expired: 6,
};

/**
 * How new a view of a subscription is: its paid count, then its cycle's end, then when it was seen (the
 * event's `created_at`, or the fetch), then its status in the cycle. Seconds, as Razorpay counts them.
 */
function newness(
  paidCount: number,
  currentEnd: Date | null,
  seenAt: Date | null,
  status: SubscriptionStatus,
): number[] {
  const seconds = (date: Date | null) => (date === null ? -Infinity : Math.floor(date.getTime() / 1000));
  return [paidCount, seconds(currentEnd), seconds(seenAt), STATUS_RANK[status]];
}

function isOlder(view: number[], stored: number[]): boolean {
  const differing = view.findIndex((part, i) => part !== stored[i]);
  return differing !== -1 && view[differing]! < stored[differing]!;
}

/**
 * Takes the processor's view of a locked subscription (a webhook's entity as of the event's
 * `created_at`, or a fresh fetch as of `seenAt`) into the stored row unless it is older than the row
 * (`newness`; docs/money-rules.md, late webhooks): a stale `subscription.pending` must not roll a renewed
 * subscription back nor announce a failure. Entering `pending` or `halted` announces the failed renewal,
 * to the bot and to the seller (docs/seller-notices.md), and tells the buyer once per failed cycle
 * (docs/buyer-messages.md).
 */
export async function applyProcessorState(
  transaction: Transaction,
  { subscription, buyer }: LockedSubscription,
  entity: SubscriptionState,
  seenAt: Date,
): Promise<'applied' | 'stale'> {
  const view = newness(entity.paid_count, fromUnix(entity.current_end), seenAt, entity.status);
  const stored = newness(
    subscription.paidCount,
    subscription.currentEnd,
    subscription.stateEventAt,
    subscription.status,
  );
  if (isOlder(view, stored)) return 'stale';
  const before = subscription.status;
  const status = TERMINAL.has(before) ? before : entity.status;
  await subscription.update(
    {
      status,
      currentStart: later(subscription.currentStart, fromUnix(entity.current_start)),
      currentEnd: later(subscription.currentEnd, fromUnix(entity.current_end)),
      chargeAt: fromUnix(entity.charge_at) ?? subscription.chargeAt,
      paidCount: Math.max(subscription.paidCount, entity.paid_count),
      stateEventAt: later(subscription.stateEventAt, seenAt),
    },
    { transaction },
  );
  // Cancelled (at cycle end, or ended): premium runs to the end of the trial or the paid cycle, no grace.
  if (subscription.cancelAtCycleEnd || TERMINAL.has(status))
    await endGraceOfCancelled(transaction, subscription);
  if (!isFailing(status) || before === status) return 'applied';

  await recordNotice(transaction, {
    kind: 'renewal_failed',
    buyer: noticeBuyer(buyer),
    purchase: noticePurchase({
      ...subscription.get(),
      guildName: await guildNameSeenBy(transaction, buyer.id, subscription.guildId),
    }),
    amountPaise: subscription.amountPaise,
    subscriptionId: subscription.processorSubscriptionId,
    status,
  });
  // Pending then halted is one failure to the buyer: the link to authorise again does not change.
  if (!isFailing(before)) {
    const message = {
      kind: 'charge_failed' as const,
      to: buyer.providerId,
      buyer: buyer.username,
      plan: messagePlan(subscription),
      amountPaise: subscription.amountPaise,
      reference: subscription.processorSubscriptionId,
    };
    await recordMessage(
      transaction,
      message,
      `${subscription.processorSubscriptionId}:${subscription.paidCount}`,
    );
  }
  // A bundle's failed renewal is told to each guild bound to it: they run on to the bundle's end.
  const guildIds = isBundle(subscription)
    ? await boundGuildsOf(transaction, subscription.id)
    : [subscription.guildId];
  for (const guildId of guildIds)
    await announceRenewalFailed(transaction, { subscription, buyer }, guildId, status);
  return 'applied';
}

/** `*_PREMIUM_RENEWAL_FAILED` for one record the subscription renews, premium running to its expiry. */
async function announceRenewalFailed(
  transaction: Transaction,
  { subscription, buyer }: LockedSubscription,
  guildId: string | null,
  status: SubscriptionStatus,
): Promise<void> {
  const target = { category: subscription.category, guildId, buyerUserId: subscription.buyerUserId };
  const record = await targetRecord(target, transaction);
  if (!record) return;
  const running = await announcedTier(transaction, {
    category: subscription.category,
    userId: subscription.buyerUserId,
    guildId,
  });
  await appendEvent(transaction, aggregateKeyFor(guildId, buyer.providerId), {
    type: eventTypeFor(subscription.category, 'RENEWAL_FAILED'),
    providerId: buyer.providerId,
    guildId,
    category: subscription.category,
    planType: subscription.planType,
    durationDays: 0,
    slots: SLOTS_PER_PURCHASE,
    expiresAt: record.expiresAt.toISOString(),
    version: record.version,
    orderId: null,
    source: 'subscription',
    subscriptionId: subscription.processorSubscriptionId,
    graceUntil: record.expiresAt.toISOString(),
    reason: `subscription ${status}`,
    tier: running.tier,
    features: running.features,
  });
}

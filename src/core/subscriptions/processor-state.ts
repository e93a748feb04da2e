import type { Transaction } from 'sequelize';
import { SLOTS_PER_PURCHASE } from '../plans';
import { aggregateKeyFor, appendEvent } from '../premium/outbox';
import { eventTypeFor } from '../premium/types';
import type { RazorpaySubscription } from '../processor/razorpay-client';
import type { LockedSubscription } from './locked-subscription';
import { targetRecord } from './target-record';

/** Once there, a subscription never comes back (Razorpay cannot renew or reactivate it). */
const TERMINAL = new Set(['cancelled', 'completed', 'expired']);
const FAILING = new Set(['pending', 'halted']);

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

/**
 * Takes the processor's view of a locked subscription (a webhook's entity, or a fresh fetch) into the
 * stored row. Webhooks come in any order, so a terminal status is never left, and the cycle and paid
 * count only move forward; a status that an older event brings back is set right by the next event or
 * by the reconciler, which fetches the subscription itself.
 *
 * Entering `pending` or `halted` announces `*_PREMIUM_RENEWAL_FAILED` (once per entry, however often
 * the event is delivered) with the record's expiry as `graceUntil`: nothing is extended, and premium
 * runs out then unless a retried charge succeeds. A target that was never granted has nothing to lose
 * and no event.
 */
export async function applyProcessorState(
  transaction: Transaction,
  { subscription, buyer }: LockedSubscription,
  entity: SubscriptionState,
): Promise<void> {
  const before = subscription.status;
  const status = TERMINAL.has(before) ? before : entity.status;
  await subscription.update(
    {
      status,
      currentStart: later(subscription.currentStart, fromUnix(entity.current_start)),
      currentEnd: later(subscription.currentEnd, fromUnix(entity.current_end)),
      chargeAt: fromUnix(entity.charge_at) ?? subscription.chargeAt,
      paidCount: Math.max(subscription.paidCount, entity.paid_count),
    },
    { transaction },
  );
  if (!FAILING.has(status) || before === status) return;

  const record = await targetRecord(subscription, transaction);
  if (!record) return;
  await appendEvent(transaction, aggregateKeyFor(subscription.guildId, buyer.providerId), {
    type: eventTypeFor(subscription.category, 'RENEWAL_FAILED'),
    providerId: buyer.providerId,
    guildId: subscription.guildId,
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
  });
}

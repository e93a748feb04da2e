import type { RazorpaySubscription } from '../../core/processor/subscription-types';
import { RazorpayApiError } from './errors';
import type { MandateMethod } from './subscriptions';

/**
 * What `PATCH /v1/subscriptions/:id` refuses, as Razorpay does: an unknown plan, a subscription that is
 * neither authenticated nor active, and a UPI mandate's (UPI AutoPay cannot change what it debits: the
 * buyer authorises a new mandate instead).
 */
export function assertUpdatable(
  subscription: RazorpaySubscription,
  mandate: MandateMethod | undefined,
  planKnown: boolean,
): void {
  if (!planKnown) throw new RazorpayApiError(400, 'The id provided does not exist', 'plan_id');
  if (mandate === 'upi') {
    throw new RazorpayApiError(400, 'Subscriptions paid through UPI cannot be updated', 'plan_id');
  }
  if (!['authenticated', 'active'].includes(subscription.status)) {
    throw new RazorpayApiError(400, `Subscription cannot be updated in ${subscription.status} status.`);
  }
}

function scheduledAtCycleEnd(subscription: RazorpaySubscription): void {
  Object.assign(subscription, { has_scheduled_changes: true, change_scheduled_at: subscription.current_end });
}

/**
 * What each subscription's next cycle changes: the plan it moves to, as an update at `cycle_end` asked,
 * or its end, as a cancel at cycle end (by the buyer or the merchant) asked.
 */
export class ScheduledPlans {
  private readonly next = new Map<string, string>();
  private readonly ending = new Set<string>();

  schedule(subscription: RazorpaySubscription, planId: string): void {
    this.next.set(subscription.id, planId);
    scheduledAtCycleEnd(subscription);
  }

  scheduleCancel(subscription: RazorpaySubscription): void {
    this.ending.add(subscription.id);
    scheduledAtCycleEnd(subscription);
  }

  endsAtCycleEnd(subscriptionId: string): boolean {
    return this.ending.has(subscriptionId);
  }

  ended(subscriptionId: string): void {
    this.ending.delete(subscriptionId);
  }

  /**
   * Drops the plan scheduled, as Razorpay's cancel of a pending update does (a cancel at cycle end stays
   * scheduled). Refused when no update is pending: one gone live cannot be cancelled.
   */
  cancelUpdate(subscription: RazorpaySubscription): RazorpaySubscription {
    if (!['authenticated', 'active'].includes(subscription.status) || !this.next.delete(subscription.id)) {
      throw new RazorpayApiError(400, 'The subscription has no scheduled update to cancel');
    }
    if (!this.ending.has(subscription.id)) {
      Object.assign(subscription, { has_scheduled_changes: false, change_scheduled_at: null });
    }
    return subscription;
  }

  /** Makes `planId` (by default the one scheduled, if any) the subscription's plan from now. */
  change(subscription: RazorpaySubscription, planId = this.next.get(subscription.id)): void {
    if (planId === undefined) return;
    this.next.delete(subscription.id);
    Object.assign(subscription, { plan_id: planId, has_scheduled_changes: false, change_scheduled_at: null });
  }
}

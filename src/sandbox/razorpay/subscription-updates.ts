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

/** The plan each subscription moves to at its next cycle, as an update at `cycle_end` asked. */
export class ScheduledPlans {
  private readonly next = new Map<string, string>();

  schedule(subscription: RazorpaySubscription, planId: string): void {
    this.next.set(subscription.id, planId);
    subscription.has_scheduled_changes = true;
    subscription.change_scheduled_at = subscription.current_end;
  }

  /** Makes `planId` (by default the one scheduled, if any) the subscription's plan from now. */
  change(subscription: RazorpaySubscription, planId = this.next.get(subscription.id)): void {
    if (planId === undefined) return;
    this.next.delete(subscription.id);
    Object.assign(subscription, { plan_id: planId, has_scheduled_changes: false, change_scheduled_at: null });
  }
}

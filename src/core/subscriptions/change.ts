import type { Core } from '..';
import { resolvePurchase, tierDailyPrice, type PricedPlan } from '../catalog';
import { AppError } from '../errors';
import { SubscriptionCharge, type Subscription, type User } from '../models';
import { isBundle } from '../purchase-kinds';
import type { RazorpayClient } from '../processor/razorpay-client';
import type { CreatedSubscription } from './create';
import { assertOwnSubscription, lockSubscription } from './locked-subscription';
import { NO_PENDING_PLAN, pendingPlanColumns } from './pending-plan';
import { replaceMandate } from './replace-mandate';
import { describeSubscription, type SubscriptionView } from './views';

export interface PlanChangeRequest {
  subscriptionId: string;
  /** A renewing catalog plan's code. */
  plan: string;
  /** The signed-in buyer; absent for an operator, who may change any subscription. */
  callerProviderId?: string;
}

/** A switch asked for and allowed (docs/subscriptions.md, "Changing plan"); nothing changed yet. */
export interface PlanChange {
  subscription: Subscription;
  buyer: User;
  plan: PricedPlan & { processorPlanId: string };
  /** `now` for a higher tier or a longer cycle, `cycle_end` for anything lower. */
  timing: 'now' | 'cycle_end';
  /** The plan's tier is above the subscription's: the rest of the cycle is upgraded now, for the difference. */
  upgradesCycle: boolean;
}

/** The subscription's own plan asked while a card's switch to another is pending: that switch is taken back. */
export interface SwitchUndo {
  undo: true;
  subscription: Subscription;
}

/** What the switch did at Razorpay and here: the subscription, and a UPI switch's new mandate to authorise. */
export interface SwitchedPlan {
  subscription: SubscriptionView;
  mandate: CreatedSubscription | null;
}

/**
 * Judges a switch of subscription `subscriptionId` to `plan`, changing nothing: its own plan while a
 * card's switch is pending is an undo of that switch. Refused: SUBSCRIPTION_NOT_FOUND (404),
 * NOT_YOUR_SUBSCRIPTION (403), UNKNOWN_PLAN, PLAN_SCOPE_MISMATCH, SAME_PLAN (nothing pending),
 * PLAN_DOES_NOT_RENEW, BUNDLE_SWITCH, SUBSCRIPTION_PLAN_NOT_CONFIGURED (400), PLAN_ARCHIVED,
 * SWITCH_NOT_UNDOABLE (409: its own plan, after a UPI switch replaced it), SUBSCRIPTION_NOT_ACTIVE (409:
 * not active, cancelled at cycle end, already replaced, or a paid cycle's charge not recorded yet, which
 * the pending plan must not be taken for).
 */
export async function planChangeOf(core: Core, request: PlanChangeRequest): Promise<PlanChange | SwitchUndo> {
  const { subscription, buyer } = await core.sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, request.subscriptionId);
    if (request.callerProviderId !== undefined) assertOwnSubscription(locked, request.callerProviderId);
    return locked;
  });
  const ownPlan = request.plan === subscription.planType;
  if (ownPlan && subscription.replacedBy !== null && subscription.status === 'active') {
    throw switchNotUndoable(subscription);
  }
  const recorded = await SubscriptionCharge.count({ where: { subscriptionId: subscription.id } });
  if (
    subscription.status !== 'active' ||
    subscription.cancelAtCycleEnd ||
    subscription.replacedBy !== null ||
    recorded < subscription.paidCount
  ) {
    throw AppError.conflict(
      'SUBSCRIPTION_NOT_ACTIVE',
      `subscription ${request.subscriptionId} is ${subscription.cancelAtCycleEnd ? 'ending' : subscription.status}: only an active one, its charges recorded, changes plan`,
    );
  }
  // The own plan needs no resolving: it may be archived since, and still renews.
  if (ownPlan && subscription.pendingPlanType !== null) return { undo: true, subscription };
  const plan = await resolvePurchase(
    core.sequelize,
    { plan: request.plan },
    { category: subscription.category, processorPlanIds: core.config.razorpayPlanIds },
  );
  const refusal = refusalOf(subscription, plan);
  if (refusal) throw AppError.validation(refusal.code, refusal.message);
  const processorPlanId = plan.processorPlanId!;
  const [from, to] = await Promise.all([
    tierDailyPrice(core.sequelize, subscription.tier, subscription.durationDays),
    tierDailyPrice(core.sequelize, plan.tier, plan.durationDays),
  ]);
  const rankFrom = from?.rank ?? 0;
  const rankTo = to?.rank ?? 0;
  const higher = rankTo > rankFrom;
  const longer = rankTo === rankFrom && plan.durationDays > subscription.durationDays;
  return {
    subscription,
    buyer,
    plan: { ...plan, processorPlanId },
    timing: higher || longer ? 'now' : 'cycle_end',
    // A bundle's days are its bindings': its switch waits for the cycle's end.
    upgradesCycle: higher && !isBundle(plan),
  };
}

/**
 * A UPI switch cancelled the old subscription at its cycle's end, and Razorpay has no way to take a
 * cancel back: the buyer keeps the plan only by a new subscription of it.
 */
function switchNotUndoable(subscription: Subscription): AppError {
  const { planType, replacedBy } = subscription;
  return AppError.conflict(
    'SWITCH_NOT_UNDOABLE',
    `subscription ${subscription.processorSubscriptionId} was switched by a new UPI mandate (${replacedBy}) and ends with its paid cycle; Razorpay cannot take that back: cancel ${replacedBy} and subscribe to ${planType} again`,
  );
}

function refusalOf(subscription: Subscription, plan: PricedPlan): { code: string; message: string } | null {
  if (plan.planType === subscription.planType)
    return { code: 'SAME_PLAN', message: `subscription is on plan ${plan.planType} already` };
  if (!plan.renews)
    return {
      code: 'PLAN_DOES_NOT_RENEW',
      message: `plan ${plan.planType} is bought once, not as a subscription`,
    };
  if (isBundle(plan) !== isBundle(subscription))
    return {
      code: 'BUNDLE_SWITCH',
      message:
        'a bundle subscription switches only to another bundle plan, a one-target one to another one-target plan',
    };
  if (!plan.processorPlanId)
    return {
      code: 'SUBSCRIPTION_PLAN_NOT_CONFIGURED',
      message: `the ${plan.planType} plan has no Razorpay plan (\`premium plans sync\`)`,
    };
  return null;
}

/**
 * Makes the switch at Razorpay, then here. A card's (or an e-mandate's) subscription is updated to the
 * plan from the end of the paid cycle and keeps it as pending, for its next charge to pay and grant
 * (pending-plan.ts). Razorpay cannot update a UPI mandate: it is replaced (replace-mandate.ts). Either way
 * the new plan is first charged when the paid cycle ends, never for a day already paid. Asked again
 * before that charge, a card's pending plan is replaced; the processor failing changes nothing here.
 */
export async function switchPlan(
  core: Core,
  processor: RazorpayClient,
  change: PlanChange,
): Promise<SwitchedPlan> {
  const id = change.subscription.processorSubscriptionId;
  const entity = await processor.fetchSubscription(id);
  if (entity.payment_method === 'upi') return replaceMandate(core, processor, change);
  await processor.updateSubscription(id, {
    plan_id: change.plan.processorPlanId,
    schedule_change_at: 'cycle_end',
  });
  return core.sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, id);
    await locked.subscription.update(pendingPlanColumns(change.plan), { transaction });
    return { subscription: await describeSubscription(locked.subscription, transaction), mandate: null };
  });
}

/**
 * Takes back a card's pending switch: Razorpay's scheduled update is cancelled first (its failing changes
 * nothing here), then the pending plan, so the next charge is the subscription's own plan again. No
 * premium changes: a switch changed none.
 */
export async function undoSwitch(
  core: Core,
  processor: RazorpayClient,
  { subscription }: SwitchUndo,
): Promise<SubscriptionView> {
  const id = subscription.processorSubscriptionId;
  await processor.cancelScheduledChanges(id);
  return core.sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, id);
    await locked.subscription.update(NO_PENDING_PLAN, { transaction });
    return describeSubscription(locked.subscription, transaction);
  });
}

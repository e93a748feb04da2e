import { readSettings } from '../settings';
import { Op, UniqueConstraintError } from 'sequelize';
import type { Core } from '..';
import { AppError } from '../errors';
import { LIVE_STATUSES, Subscription } from '../models';
import { assertActingForSelf, targetGuild } from '../identity/access';
import { resolvePurchase } from '../catalog';
import { rupeesOfPaise } from '../money';
import { billingOfColumns, parseBilling, sameBilling, saveBilling, type BillingInput } from '../invoices';
import { isBundle } from '../purchase-kinds';
import { aggregateKeyFor } from '../premium/outbox';
import type { Category } from '../premium/types';
import type { RazorpayClient } from '../processor/razorpay-client';
import { findUserByProviderId } from '../users';
import { cancelSubscription } from './cancel';
import { tierHeldUntil } from './target-record';
import { AUTHORIZATION_WINDOW_MS, mandateRequest, mandateRow } from './new-mandate';
import { DAY_MS, hadTrial } from './trials';

/** Razorpay wants `start_at` in the future; an expiry closer than this starts the subscription now. */
const START_MARGIN_MS = 60_000;

export interface CreateSubscriptionRequest {
  callerProviderId: string;
  providerId: string;
  /** A renewing catalog plan's code; the seed's `planType` (Monthly, Yearly) names one too. */
  plan?: string;
  planType?: string;
  /** INR a cycle, as the buyer was shown it: when given, it must be the plan's price (AMOUNT_MISMATCH). */
  amount?: number;
  category: Category;
  guildId?: string | null;
  /** Who each charge's invoice is for (docs/invoices.md): 400 STATE_REQUIRED, INVALID_STATE, …. */
  billing?: BillingInput | null;
  /** Refused when given: offers are for one-time purchases (400 OFFER_NOT_FOR_SUBSCRIPTIONS). */
  offerCode?: string | null;
  /** Refused when true: a gift code is bought once, with create-order (400 GIFT_NOT_FOR_SUBSCRIPTIONS). */
  gift?: boolean;
}

export interface CreatedSubscription {
  subscriptionId: string;
  status: string;
  shortUrl: string | null;
  keyId: string;
  planType: string;
  tier: string;
  category: Category;
  guildId: string | null;
  /**
   * When Razorpay first charges (`start_at`): after the trial, when the target's days of the plan's tier or
   * a higher one end, or null for at once.
   */
  startAt: string | null;
  /** Days free before the first charge (0: none; a buyer or guild that had a trial gets none). */
  trialDays: number;
  /** The first charge: when (null: at authorisation) and how much, in INR. */
  firstCharge: { at: string | null; amount: number };
}

/**
 * Creates a Razorpay subscription for a target the buyer may pay for (create-order's rules), one live
 * subscription per target (409 SUBSCRIPTION_EXISTS). The first charge waits for the trial, or for the
 * target's days of the plan's tier or higher (`firstChargeOf`). The same buyer asking again for the same
 * target and plan before authorising gets the same subscription back; any other request replaces one
 * nobody has authorised yet. Nothing is stored when the processor fails.
 */
export async function createSubscription(
  core: Core,
  processor: RazorpayClient,
  request: CreateSubscriptionRequest,
): Promise<CreatedSubscription> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  // Refused rather than ignored: a buyer must never be charged the full price believing the code applied.
  if (request.offerCode !== undefined && request.offerCode !== null) {
    throw AppError.validation(
      'OFFER_NOT_FOR_SUBSCRIPTIONS',
      'offer codes apply to one-time purchases only; subscribe without the code, or buy the plan once with it',
    );
  }
  if (request.gift === true) {
    throw AppError.validation(
      'GIFT_NOT_FOR_SUBSCRIPTIONS',
      'a gift code is bought once: buy the plan as a gift, without subscribing',
    );
  }
  const billing = parseBilling(request.billing, (await readSettings(core)).invoicing.sellerGstin);
  if (!request.plan && !request.planType) {
    throw AppError.validation(
      'PLAN_REQUIRED',
      'name the plan to subscribe to: "plan" (or the seed\'s "planType")',
    );
  }
  const plan = await resolvePurchase(core.sequelize, request, {
    category: request.category,
    processorPlanIds: core.config.razorpayPlanIds,
  });
  if (!plan.renews) {
    throw AppError.validation(
      'PLAN_DOES_NOT_RENEW',
      `plan ${plan.planType} is bought once, not as a subscription`,
    );
  }
  if (request.amount !== undefined && Math.round(request.amount * 100) !== plan.pricePaise) {
    // The price changed since the buyer was shown it: they subscribe at the price they read, or not at all.
    throw AppError.validation(
      'AMOUNT_MISMATCH',
      `the ${plan.planType} plan costs ${rupeesOfPaise(plan.pricePaise)} a cycle, not ${rupeesOfPaise(Math.round(request.amount * 100))}`,
    );
  }
  const processorPlanId = plan.processorPlanId;
  if (!processorPlanId) {
    throw AppError.validation(
      'SUBSCRIPTION_PLAN_NOT_CONFIGURED',
      `the ${plan.planType} plan cannot be bought as a subscription here (it has no Razorpay plan: \`premium plans sync\`)`,
    );
  }
  const buyer = await findUserByProviderId(request.providerId);
  const bundle = isBundle(plan);
  // A bundle's guild is only its first slot's (none: all bound later). Its target is the buyer's bundle of
  // the plan: one live subscription of each.
  const bundleWithoutGuild = bundle && request.category === 'SERVER' && (request.guildId ?? null) === null;
  const guildId = bundleWithoutGuild
    ? null
    : await targetGuild(buyer, request.category, request.guildId ?? null);
  const targetKey = bundle
    ? `bundle:${buyer.providerId}:${plan.planType}`
    : aggregateKeyFor(guildId, buyer.providerId);
  // A bundle starts at its first charge, whatever its first guild has, and has no trial.
  const start = bundle
    ? { trialDays: 0, startAt: null }
    : await firstChargeOf(core, { category: request.category, guildId, buyerUserId: buyer.id }, plan);
  const existing = await liveSubscription(targetKey);
  if (existing) {
    const reopen =
      existing.status === 'created' &&
      existing.buyerUserId === buyer.id &&
      existing.planType === plan.planType &&
      existing.amountPaise === plan.pricePaise &&
      sameBilling(billingOfColumns(existing), billing) &&
      existing.trialDays === start.trialDays;
    if (reopen) return describeCreated(existing, core.config.razorpay.keyId);
    if (!(await replacedUnauthorised(core, processor, existing))) throw subscriptionExists(targetKey);
  }

  const mandate = {
    plan: { ...plan, processorPlanId },
    buyer,
    category: request.category,
    guildId,
    targetKey,
    billing,
    ...start,
  };
  const created = await processor.createSubscription(mandateRequest(mandate));
  try {
    const subscription = await Subscription.create(mandateRow(mandate, created));
    await saveBilling(core.sequelize, buyer.id, billing);
    return describeCreated(subscription, core.config.razorpay.keyId);
  } catch (error) {
    // Another request for the same target won the race; this processor subscription is never shown.
    if (error instanceof UniqueConstraintError) throw subscriptionExists(targetKey);
    throw error;
  }
}

/**
 * A subscription nobody has authorised holds its target for no one: another manager of the guild (or
 * the buyer choosing another plan) replaces it, cancelled at Razorpay first. One Razorpay already has
 * authorised, whose webhook is on its way, is kept.
 */
async function replacedUnauthorised(
  core: Core,
  processor: RazorpayClient,
  existing: Subscription,
): Promise<boolean> {
  if (existing.status !== 'created') return false;
  const subscriptionId = existing.processorSubscriptionId;
  if ((await processor.fetchSubscription(subscriptionId)).status !== 'created') return false;
  await cancelSubscription(core, processor, { subscriptionId });
  return true;
}

/**
 * The trial and the first charge of a subscription to `plan` for `target` (docs/trials.md). A target that
 * holds days of the plan's tier or a higher one gets no trial and is first charged when those days end, so
 * nobody pays twice for days they have and no trial tops up a tier already held. Otherwise the plan's
 * trial, unless the buyer (or guild) had one: it starts when the mandate is authorised, within the
 * authorisation window, so the first charge waits the trial's days and that window, and the trial is never
 * shorter than its days. Without a trial the first charge comes at once.
 */
async function firstChargeOf(
  core: Core,
  target: { category: Category; guildId: string | null; buyerUserId: number },
  plan: { tier: string; trialDays: number },
): Promise<{ trialDays: number; startAt: Date | null }> {
  const heldUntil = await tierHeldUntil(core.sequelize, target, plan.tier);
  if (heldUntil && heldUntil.getTime() > Date.now() + START_MARGIN_MS)
    return { trialDays: 0, startAt: heldUntil };
  if (plan.trialDays === 0 || (await hadTrial(core, target.buyerUserId, target.guildId))) {
    return { trialDays: 0, startAt: null };
  }
  return {
    trialDays: plan.trialDays,
    startAt: new Date(Date.now() + plan.trialDays * DAY_MS + AUTHORIZATION_WINDOW_MS),
  };
}

/** The target's live subscription; one left `created` past its authorisation window no longer counts. */
async function liveSubscription(targetKey: string): Promise<Subscription | null> {
  await Subscription.update(
    { status: 'expired' },
    {
      where: {
        targetKey,
        status: 'created',
        createdAt: { [Op.lt]: new Date(Date.now() - AUTHORIZATION_WINDOW_MS) },
      },
    },
  );
  return Subscription.findOne({ where: { targetKey, status: [...LIVE_STATUSES] } });
}

function subscriptionExists(targetKey: string): AppError {
  const target = targetKey.startsWith('guild:')
    ? `guild ${targetKey.slice(6)}`
    : targetKey.startsWith('bundle:')
      ? `your bundle of plan ${targetKey.split(':')[2]}`
      : 'your account';
  return AppError.conflict('SUBSCRIPTION_EXISTS', `${target} already has a live subscription`);
}

export function describeCreated(subscription: Subscription, keyId: string): CreatedSubscription {
  return {
    subscriptionId: subscription.processorSubscriptionId,
    status: subscription.status,
    shortUrl: subscription.shortUrl,
    keyId,
    planType: subscription.planType,
    tier: subscription.tier,
    category: subscription.category,
    guildId: subscription.guildId,
    startAt: subscription.startAt?.toISOString() ?? null,
    trialDays: subscription.trialDays,
    firstCharge: {
      at: subscription.startAt?.toISOString() ?? null,
      amount: subscription.amountPaise / 100,
    },
  };
}

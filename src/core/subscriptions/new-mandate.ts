import type { PricedPlan } from '../catalog';
import type { Billing } from '../invoices';
import { billingColumns } from '../invoices';
import type { Subscription } from '../models';
import type { CreationAttributes } from 'sequelize';
import { monthsOf } from '../plans';
import type { Category } from '../premium/types';
import type { RazorpaySubscription } from '../processor/razorpay-client';
import type { CreateSubscriptionInput } from '../processor/subscription-types';

/** The buyer has this long to authorise the mandate; an abandoned checkout then stops holding the target. */
export const AUTHORIZATION_WINDOW_MS = 3_600_000;
/** How long a mandate runs, whatever the plan's cycle: Razorpay needs a count of cycles. */
const MANDATE_MONTHS = 120;

/** A new mandate of a renewing plan for one target: a subscription, or a UPI switch's replacement. */
export interface NewMandate {
  plan: PricedPlan & { processorPlanId: string };
  buyer: { id: number; providerId: string };
  category: Category;
  guildId: string | null;
  targetKey: string;
  /** Razorpay's first charge (`start_at`); null: at authorisation. */
  startAt: Date | null;
  trialDays: number;
  billing: Billing;
}

/** What Razorpay is asked for the mandate. */
export function mandateRequest({ plan, buyer, targetKey, startAt }: NewMandate): CreateSubscriptionInput {
  return {
    plan_id: plan.processorPlanId,
    total_count: Math.max(1, Math.floor(MANDATE_MONTHS / monthsOf(plan.durationDays))),
    quantity: 1,
    customer_notify: 1,
    ...(startAt && { start_at: Math.floor(startAt.getTime() / 1000) }),
    expire_by: Math.floor((Date.now() + AUTHORIZATION_WINDOW_MS) / 1000),
    notes: { buyer: buyer.providerId, target: targetKey, planType: plan.planType },
  };
}

/** The row of the subscription Razorpay created for the mandate. */
export function mandateRow(
  mandate: NewMandate,
  created: RazorpaySubscription,
): CreationAttributes<Subscription> {
  const { plan } = mandate;
  return {
    processorSubscriptionId: created.id,
    processorPlanId: plan.processorPlanId,
    buyerUserId: mandate.buyer.id,
    category: mandate.category,
    guildId: mandate.guildId,
    targetKey: mandate.targetKey,
    planType: plan.planType,
    durationDays: plan.durationDays,
    tier: plan.tier,
    amountPaise: plan.pricePaise,
    slots: plan.slots,
    trialDays: mandate.trialDays,
    startAt: mandate.startAt,
    shortUrl: created.short_url,
    ...billingColumns(mandate.billing),
  };
}

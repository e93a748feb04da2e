import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { AppError } from '../errors';
import { guildNameSeenBy } from '../identity/guild-name';
import { billingOfColumns, chargePeriod, describePurchase, issueInvoice } from '../invoices';
import { SubscriptionCharge } from '../models';
import { planOf } from '../plans';
import { kindNameOf, kindOf } from '../purchase-kinds';
import { grantPremium } from '../premium/grant';
import type { PremiumChange } from '../premium/types';
import { execute } from '../db/database';
import { noticeBuyer, noticePurchase, recordNotice } from '../seller-notices';
import { messagePlan, recordMessage } from '../buyer-messages';
import type { LockedSubscription } from './locked-subscription';
import { takePendingPlan } from './pending-plan';
import { TRIAL_CONVERTED } from './sql';
import { DAY_MS } from './trials';

const HOUR_MS = 3_600_000;

export type ChargeSource = 'checkout' | 'webhook' | 'reconcile';

/** Where a charge is applied from, in the caller's transaction, with the settings its grant and invoice need. */
export interface ChargeContext {
  source: ChargeSource;
  graceHours: number;
  transaction: Transaction;
  invoicing: InvoiceSettings;
}

/** One captured payment of a subscription, as a webhook, an invoice or Checkout's answer shows it. */
export interface ChargeInput {
  paymentId: string;
  invoiceId: string | null;
  /** In paise. */
  amount: number;
  currency: string;
  /** The cycle it pays for, when known. */
  cycleStart: Date | null;
  cycleEnd: Date | null;
}

const ACTORS: Record<ChargeSource, (locked: LockedSubscription) => string> = {
  checkout: ({ buyer }) => `user:${buyer.providerId}`,
  webhook: () => 'razorpay-webhook',
  reconcile: () => 'reconciler',
};

/**
 * The one way a subscription's charge grants premium, for the webhook, verification and the reconciler
 * alike: one cycle of the plan through `grantPremium`, keyed `subscription-charge:<payment id>`, so the
 * same payment grants once however often and in whatever order it is reported. The record then runs to
 * at least the cycle's end plus SUBSCRIPTION_GRACE_HOURS, so a renewal charged a little late never
 * leaves a gap. A refunded charge is never granted again. The charge's invoice is issued last, when the
 * charge is first recorded (docs/invoices.md), with the seller's notice: a sale for the first charge,
 * a renewal for the others (docs/seller-notices.md).
 *
 * Refused before anything is written: AMOUNT_MISMATCH (money taken that does not pay for the plan: an
 * operator must refund), CHARGE_OF_ANOTHER_SUBSCRIPTION.
 */
export async function applyCharge(
  sequelize: Sequelize,
  locked: LockedSubscription,
  charge: ChargeInput,
  context: ChargeContext,
): Promise<PremiumChange | null> {
  const { subscription, buyer } = locked;
  const { transaction } = context;
  const known = await SubscriptionCharge.findOne({ where: { paymentId: charge.paymentId }, transaction });
  if (known && known.subscriptionId !== subscription.id) {
    throw AppError.conflict(
      'CHARGE_OF_ANOTHER_SUBSCRIPTION',
      `payment ${charge.paymentId} was charged for another subscription`,
    );
  }
  if (known?.status === 'refunded') return null;
  if (!known) await takePendingPlan(subscription, transaction);
  if (charge.amount !== subscription.amountPaise || charge.currency !== 'INR') {
    throw AppError.validation(
      'AMOUNT_MISMATCH',
      `the charge of ${charge.amount} ${charge.currency} (paise) does not match subscription ${subscription.processorSubscriptionId}'s ${subscription.amountPaise} INR`,
    );
  }
  const atLeastUntil = charge.cycleEnd && new Date(charge.cycleEnd.getTime() + context.graceHours * HOUR_MS);
  const actor = ACTORS[context.source](locked);
  const record = (grantId: number | null) => recordCharge(sequelize, locked, charge, context, grantId);
  const granted = await kindOf({ kind: kindNameOf(subscription) }).grant(sequelize, {
    paymentId: charge.paymentId,
    actor,
    terms: { ...subscription.get(), months: null, buyerProviderId: buyer.providerId },
    origin: {
      source: 'charge',
      subscriptionId: subscription.id,
      processorSubscriptionId: subscription.processorSubscriptionId,
      transaction,
      atLeastUntil: atLeastUntil ?? new Date(Date.now() + subscription.durationDays * DAY_MS),
    },
    grantDays: async () => {
      const change = await grantPremium(
        sequelize,
        {
          category: subscription.category,
          providerId: buyer.providerId,
          guildId: subscription.guildId,
          plan: planOf({ ...subscription.get(), months: null }),
          source: 'subscription',
          actor,
          reason: `subscription ${subscription.processorSubscriptionId} payment ${charge.paymentId}`,
          idempotencyKey: `subscription-charge:${charge.paymentId}`,
          atLeastUntil,
          subscriptionId: subscription.processorSubscriptionId,
        },
        { transaction },
      );
      if (!known) await record(change.grantId);
      return change;
    },
    // A charge granting no days of its own (a bundle's) is applied once, when it is first recorded; its
    // row names no grant: its refunds take from what the kind gave.
    recordWithoutGrant: async () => {
      if (known) return false;
      await record(null);
      return true;
    },
  });
  return granted.change;
}

/** A charge first seen: the trial converted, the seller's notice, the buyer's receipt, its row and its invoice. */
async function recordCharge(
  sequelize: Sequelize,
  { subscription, buyer }: LockedSubscription,
  charge: ChargeInput,
  { transaction, invoicing, source }: ChargeContext,
  grantId: number | null,
): Promise<void> {
  // The first charge after a trial converts it (the reports count it).
  await execute(transaction, TRIAL_CONVERTED, [subscription.id]);
  const charged = await SubscriptionCharge.count({
    where: { subscriptionId: subscription.id },
    transaction,
  });
  const guildName = await guildNameSeenBy(transaction, buyer.id, subscription.guildId);
  await recordNotice(transaction, {
    kind: charged === 0 ? 'sale' : 'renewal',
    buyer: noticeBuyer(buyer),
    purchase: noticePurchase({ ...subscription.get(), guildName }),
    amountPaise: charge.amount,
    orderId: null,
    subscriptionId: subscription.processorSubscriptionId,
  });
  const receipt = {
    kind: 'receipt' as const,
    to: buyer.providerId,
    buyer: buyer.username,
    plan: messagePlan(subscription),
    amountPaise: charge.amount,
    reference: subscription.processorSubscriptionId,
  };
  await recordMessage(transaction, receipt, charge.paymentId);
  await SubscriptionCharge.create(
    {
      subscriptionId: subscription.id,
      paymentId: charge.paymentId,
      invoiceId: charge.invoiceId,
      amountPaise: charge.amount,
      currency: charge.currency,
      cycleStart: charge.cycleStart,
      cycleEnd: charge.cycleEnd,
      grantId,
      source,
    },
    { transaction },
  );
  await issueInvoice(
    sequelize,
    invoicing,
    {
      paymentId: charge.paymentId,
      totalPaise: charge.amount,
      currency: charge.currency,
      buyer: { userId: buyer.id, username: buyer.username },
      billing: billingOfColumns(subscription),
      description: describePurchase({ ...subscription.get(), guildName, subscription: true }),
      period: chargePeriod(charge, subscription.durationDays),
      orderId: null,
      subscriptionId: subscription.id,
    },
    { transaction },
  );
}

import { readSettings } from '../settings';
import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { SubscriptionCharge } from '../models';
import type { RazorpayClient } from '../processor/razorpay-client';
import { applyCharge, type ChargeInput } from './charges';
import { lockSubscription } from './locked-subscription';
import { fromUnix } from './processor-state';

/** A subscription's charge as `invoice.paid` reports it, or as its invoice tells of a charged payment. */
export interface InvoiceCharge {
  /** The processor's subscription (`sub_…`). */
  subscriptionId: string;
  charge: ChargeInput;
}

/** The invoice fields that name a charge's subscription and cycle. */
export interface ChargedInvoice {
  id: string;
  subscription_id: string | null;
  billing_start: number | null;
  billing_end: number | null;
}

/** What a payment event says of a payment that belongs to an invoice. */
export interface InvoicePayment {
  paymentId: string;
  invoiceId: string;
  amount: number;
  currency: string;
}

export function invoiceCharge(invoice: ChargedInvoice, payment: InvoicePayment): InvoiceCharge | null {
  if (invoice.subscription_id === null) return null;
  return {
    subscriptionId: invoice.subscription_id,
    charge: {
      paymentId: payment.paymentId,
      invoiceId: invoice.id,
      amount: payment.amount,
      currency: payment.currency,
      cycleStart: fromUnix(invoice.billing_start),
      cycleEnd: fromUnix(invoice.billing_end),
    },
  };
}

/**
 * `payment.captured` and `order.paid` of an invoice's payment name neither the subscription nor the
 * cycle: Razorpay's invoice does. Null when the payment is recorded already (whichever event came first
 * applied the cycle) or the invoice is no subscription's. Asked before any transaction opens; a
 * processor that cannot be asked is PROCESSOR_UNAVAILABLE, a 5xx, and Razorpay delivers again.
 */
export async function resolveInvoicePayment(
  processor: RazorpayClient,
  payment: InvoicePayment,
): Promise<InvoiceCharge | null> {
  if (await SubscriptionCharge.findOne({ where: { paymentId: payment.paymentId } })) return null;
  return invoiceCharge(await processor.fetchInvoice(payment.invoiceId), payment);
}

/**
 * Applies a charge through `applyCharge`, as `subscription.charged` does: the first of the four events
 * of one charge grants the cycle, the others find it granted. SUBSCRIPTION_NOT_FOUND (ignored) for a
 * subscription that is not ours.
 */
export async function applyInvoiceCharge(
  core: Core,
  { subscriptionId, charge }: InvoiceCharge,
  transaction: Transaction,
): Promise<void> {
  await applyCharge(core.sequelize, await lockSubscription(transaction, subscriptionId), charge, {
    source: 'webhook',
    graceHours: core.config.subscriptionGraceHours,
    invoicing: (await readSettings(core, transaction)).invoicing,
    transaction,
  });
}

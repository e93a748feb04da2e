import type { Sequelize } from 'sequelize';
import { SubscriptionCharge } from '../models';
import type { PremiumChange } from '../premium/types';
import type { RazorpayClient, RazorpayPayment, RazorpaySubscription } from '../processor/razorpay-client';
import { applyCharge, type ChargeContext, type ChargeInput } from './charges';
import type { LockedSubscription } from './locked-subscription';
import { applyProcessorState, fromUnix } from './processor-state';

/** What the processor says of a subscription: its state, and the captured charges we have not recorded. */
export interface ProcessorView {
  subscription: RazorpaySubscription;
  unrecordedCharges: ChargeInput[];
  /** When the processor was asked (see applyProcessorState). */
  observedAt: Date;
}

/**
 * Asks the processor about a subscription: the entity, its paid invoices, and for each paid invoice whose
 * payment we have not recorded, the payment itself (only a payment still captured is a charge to apply;
 * one refunded meanwhile is not). Throws the processor's `AppError` when it cannot be asked.
 */
export async function fetchProcessorView(
  processor: RazorpayClient,
  processorSubscriptionId: string,
): Promise<ProcessorView> {
  const observedAt = new Date();
  const subscription = await processor.fetchSubscription(processorSubscriptionId);
  const invoices = await processor.fetchSubscriptionInvoices(processorSubscriptionId);
  const paid = invoices.filter((invoice) => invoice.status === 'paid' && invoice.payment_id !== null);
  const recorded = new Set(
    (
      await SubscriptionCharge.findAll({
        where: { paymentId: paid.map((invoice) => invoice.payment_id!) },
        attributes: ['paymentId'],
      })
    ).map((charge) => charge.paymentId),
  );
  const unrecordedCharges: ChargeInput[] = [];
  for (const invoice of paid.filter((paidInvoice) => !recorded.has(paidInvoice.payment_id!))) {
    const payment: RazorpayPayment = await processor.fetchPayment(invoice.payment_id!);
    if (payment.status !== 'captured') continue;
    unrecordedCharges.push({
      paymentId: payment.id,
      invoiceId: invoice.id,
      amount: payment.amount,
      currency: payment.currency,
      cycleStart: fromUnix(invoice.billing_start),
      cycleEnd: fromUnix(invoice.billing_end),
    });
  }
  // Oldest cycle first, so the ledger reads in the order the cycles were paid.
  unrecordedCharges.sort((a, b) => (a.cycleStart?.getTime() ?? 0) - (b.cycleStart?.getTime() ?? 0));
  return { subscription, unrecordedCharges, observedAt };
}

/** Applies a processor view to a locked subscription: each unrecorded charge, then its state. */
export async function applyProcessorView(
  sequelize: Sequelize,
  locked: LockedSubscription,
  view: ProcessorView,
  context: ChargeContext,
): Promise<PremiumChange[]> {
  const changes: PremiumChange[] = [];
  for (const charge of view.unrecordedCharges) {
    const change = await applyCharge(sequelize, locked, charge, context);
    if (change && !change.replayed) changes.push(change);
  }
  await applyProcessorState(context.transaction, locked, view.subscription, view.observedAt);
  return changes;
}

import type { Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { issueCreditNote } from '../invoices';
import { processedTotalOf } from '../purchase-kinds/refund-records';

/**
 * The credit note of a processed refund of an order or a charge (docs/invoices.md), issued last in the
 * transaction that applies the refund, whatever the refund did to premium: money went back to the buyer.
 * Bounded by the larger of what Razorpay says was refunded and what `payment_refunds` holds processed.
 */
export async function creditRefund(
  transaction: Transaction,
  invoicing: InvoiceSettings,
  refund: { paymentId: string; refundId: string | null; amountPaise?: number; refundedTotal: number },
): Promise<void> {
  const refundedTotal = Math.max(refund.refundedTotal, await processedTotalOf(transaction, refund.paymentId));
  await issueCreditNote(transaction, invoicing, { ...refund, refundedTotal });
}

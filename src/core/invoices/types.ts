import type { TaxLines } from './tax';

export type InvoiceKind = 'invoice' | 'receipt';

/** What the export and the CLI call each row: an invoice, a credit note, or a receipt (no GSTIN). */
export type DocumentType = InvoiceKind | 'credit_note';

/** An invoice or receipt as issued and frozen (docs/invoices.md), amounts in paise. */
export interface IssuedInvoice {
  id: number;
  kind: InvoiceKind;
  number: string;
  issuedAt: Date;
  paymentId: string;
  /** Razorpay's order id, or null for a subscription charge. */
  orderId: string | null;
  /** Razorpay's subscription id, for a subscription charge. */
  subscriptionId: string | null;
  buyerProviderId: string;
  description: string;
  seller: { gstin: string | null; name: string | null; address: string | null; stateCode: string | null };
  buyer: InvoiceBuyer;
  placeOfSupply: string | null;
  sac: string | null;
  ratePercent: number;
  /** The seller's LUT, on an export zero-rated under it; null on every other invoice. */
  exportLut: string | null;
  /** The days the service covers, India dates; null on documents issued before it was printed. */
  servicePeriod: { from: string; to: string } | null;
  lines: TaxLines;
  currency: string;
  /**
   * The offer the order was bought with: its list price and the discount, in paise, shown as
   * informational lines above the taxable value (the tax is on what was paid, `lines.total`). Null for an
   * order bought at its list price and for a subscription charge. Read from the order, which never
   * changes them once made.
   */
  offer: InvoiceOffer | null;
  creditNotes: IssuedCreditNote[];
}

export interface InvoiceBuyer {
  name: string;
  gstin: string | null;
  stateCode: string | null;
  address: string | null;
  pincode: string | null;
  /** ISO 3166 alpha-2 of a buyer abroad. */
  country: string | null;
}

export interface InvoiceOffer {
  /** The offer's code; null only if the offer row were gone. */
  code: string | null;
  listPricePaise: number;
  discountPaise: number;
}

export interface IssuedCreditNote {
  number: string;
  issuedAt: Date;
  invoiceNumber: string;
  invoiceIssuedAt: Date;
  /** Razorpay's refund id; null when the reconciler found the payment refunded without naming one. */
  refundId: string | null;
  /** Why the amount is credited; null on credit notes issued before reasons were kept. */
  reason: string | null;
  lines: TaxLines;
}

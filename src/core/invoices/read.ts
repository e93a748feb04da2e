import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { indiaMonth } from './numbering';
import {
  CREDIT_NOTES_OF,
  DOCUMENTS_ISSUED,
  INVOICE_BY_NUMBER,
  INVOICE_OF_PAYMENT,
  LIST_INVOICES,
  OWN_INVOICE,
} from './sql';
import type { TaxLines } from './tax';
import type { DocumentType, InvoiceKind, IssuedCreditNote, IssuedInvoice } from './types';

interface InvoiceRow extends TaxLines {
  id: number;
  kind: InvoiceKind;
  number: string;
  issuedAt: Date;
  paymentId: string;
  orderId: string | null;
  subscriptionId: string | null;
  buyerProviderId: string;
  description: string;
  sellerGstin: string | null;
  sellerName: string | null;
  sellerAddress: string | null;
  sellerStateCode: string | null;
  buyerName: string;
  buyerGstin: string | null;
  buyerStateCode: string | null;
  buyerAddress: string | null;
  buyerPincode: string | null;
  buyerCountry: string | null;
  exportLut: string | null;
  periodFrom: string | null;
  periodTo: string | null;
  placeOfSupply: string | null;
  sac: string | null;
  ratePercent: string;
  currency: string;
  hasOffer: boolean | null;
  offerCode: string | null;
  listPricePaise: number | null;
  discountPaise: number | null;
}

type CreditNoteRow = TaxLines & Omit<IssuedCreditNote, 'lines'> & { invoiceId: number };

const linesOf = ({ taxable, cgst, sgst, igst, total }: TaxLines): TaxLines => ({
  taxable,
  cgst,
  sgst,
  igst,
  total,
});

/** The rows as documents, each with its credit notes. */
async function withCreditNotes(sequelize: Sequelize, rows: InvoiceRow[]): Promise<IssuedInvoice[]> {
  if (rows.length === 0) return [];
  const notes = await selectRows<CreditNoteRow>(sequelize, CREDIT_NOTES_OF, [rows.map((row) => row.id)]);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    number: row.number,
    issuedAt: row.issuedAt,
    paymentId: row.paymentId,
    orderId: row.orderId,
    subscriptionId: row.subscriptionId,
    buyerProviderId: row.buyerProviderId,
    description: row.description,
    seller: {
      gstin: row.sellerGstin,
      name: row.sellerName,
      address: row.sellerAddress,
      stateCode: row.sellerStateCode,
    },
    buyer: {
      name: row.buyerName,
      gstin: row.buyerGstin,
      stateCode: row.buyerStateCode,
      address: row.buyerAddress,
      pincode: row.buyerPincode,
      country: row.buyerCountry,
    },
    placeOfSupply: row.placeOfSupply,
    sac: row.sac,
    ratePercent: Number(row.ratePercent),
    exportLut: row.exportLut,
    servicePeriod: row.periodFrom && row.periodTo ? { from: row.periodFrom, to: row.periodTo } : null,
    lines: linesOf(row),
    currency: row.currency,
    offer: row.hasOffer
      ? { code: row.offerCode, listPricePaise: row.listPricePaise!, discountPaise: row.discountPaise! }
      : null,
    creditNotes: notes
      .filter((note) => note.invoiceId === row.id)
      .map((note) => ({
        number: note.number,
        issuedAt: note.issuedAt,
        invoiceNumber: note.invoiceNumber,
        invoiceIssuedAt: note.invoiceIssuedAt,
        refundId: note.refundId,
        reason: note.reason,
        lines: linesOf(note),
      })),
  }));
}

const notFound = (what: string) => AppError.notFound('INVOICE_NOT_FOUND', `no invoice ${what}`);

/**
 * The invoice of the caller's order (Razorpay's `order_…` id) or subscription charge (its `pay_…`
 * payment): 404 INVOICE_NOT_FOUND for another user's, an unknown one, and one with no payment applied.
 */
export async function ownInvoice(
  sequelize: Sequelize,
  providerId: string,
  orderOrPaymentId: string,
): Promise<IssuedInvoice> {
  const rows = await selectRows<InvoiceRow>(sequelize, OWN_INVOICE, [orderOrPaymentId, providerId]);
  const [invoice] = await withCreditNotes(sequelize, rows);
  if (!invoice) throw notFound(`for ${orderOrPaymentId} of yours`);
  return invoice;
}

/**
 * A credit note numbered `number` against the invoice of the caller's order or subscription charge, with
 * that invoice: 404 CREDIT_NOTE_NOT_FOUND for another user's, as `ownInvoice` answers.
 */
export async function ownCreditNote(
  sequelize: Sequelize,
  providerId: string,
  orderOrPaymentId: string,
  number: string,
): Promise<{ invoice: IssuedInvoice; note: IssuedCreditNote }> {
  const rows = await selectRows<InvoiceRow>(sequelize, OWN_INVOICE, [orderOrPaymentId, providerId]);
  const [invoice] = await withCreditNotes(sequelize, rows);
  const note = invoice?.creditNotes.find((candidate) => candidate.number === number);
  if (!invoice || !note) {
    throw AppError.notFound(
      'CREDIT_NOTE_NOT_FOUND',
      `no credit note ${number} for ${orderOrPaymentId} of yours`,
    );
  }
  return { invoice, note };
}

/** The invoice of a payment (an order's or a subscription charge's), for the seller's console. */
export async function invoiceOfPayment(sequelize: Sequelize, paymentId: string): Promise<IssuedInvoice> {
  const rows = await selectRows<InvoiceRow>(sequelize, INVOICE_OF_PAYMENT, [paymentId]);
  const [invoice] = await withCreditNotes(sequelize, rows);
  if (!invoice) throw notFound(`for payment ${paymentId}`);
  return invoice;
}

/** The invoice numbered `number`, or the one a credit note numbered `number` credits. */
export async function invoiceByNumber(sequelize: Sequelize, number: string): Promise<IssuedInvoice> {
  const rows = await selectRows<InvoiceRow>(sequelize, INVOICE_BY_NUMBER, [number]);
  const [invoice] = await withCreditNotes(sequelize, rows);
  if (!invoice) throw notFound(`or credit note numbered ${number}`);
  return invoice;
}

export interface InvoiceListQuery {
  /** A buyer's Discord id. */
  user?: string;
  from?: Date;
  /** Excluded. */
  to?: Date;
  limit?: number;
}

export const INVOICE_LIST_LIMIT = 1000;

/** Invoices and receipts, oldest first, with their credit notes. */
export async function listInvoices(sequelize: Sequelize, query: InvoiceListQuery): Promise<IssuedInvoice[]> {
  const rows = await selectRows<InvoiceRow>(sequelize, LIST_INVOICES, [
    query.user ?? null,
    query.from ?? null,
    query.to ?? null,
    query.limit ?? INVOICE_LIST_LIMIT,
  ]);
  return withCreditNotes(sequelize, rows);
}

/** One row of the accountant's export: an invoice, receipt or credit note, amounts in paise. */
export interface DocumentRow extends TaxLines {
  type: DocumentType;
  number: string;
  issuedAt: Date;
  buyerGstin: string | null;
  placeOfSupply: string | null;
  paymentId: string;
  refundId: string | null;
  /** The invoice a credit note credits, and when it was issued; null for an invoice or receipt. */
  invoiceNumber: string | null;
  invoiceIssuedAt: Date | null;
}

/** Every invoice, receipt and credit note issued in month `YYYY-MM` of India time, in the order issued. */
export async function documentsOfMonth(sequelize: Sequelize, month: string): Promise<DocumentRow[]> {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
    throw AppError.validation('INVALID_MONTH', `expected a month like 2026-04, got "${month}"`);
  }
  const { from, to } = indiaMonth(month);
  return selectRows<DocumentRow>(sequelize, DOCUMENTS_ISSUED, [from, to]);
}

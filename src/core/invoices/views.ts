import { csvLine } from '../csv';
import type { DocumentRow } from './read';
import { indiaDate } from './numbering';
import { inr, type TaxLines } from './tax';
import type { IssuedInvoice } from './types';

const amountsOf = (lines: TaxLines) => ({
  taxable: inr(lines.taxable),
  cgst: inr(lines.cgst),
  sgst: inr(lines.sgst),
  igst: inr(lines.igst),
  total: inr(lines.total),
});

/**
 * The invoice as `GET /api/payment/orders/:orderId/invoice` answers `Accept: application/json`, and as
 * `premium invoices show --json` prints it: amounts in INR as text with two decimals (`"168.64"`), so
 * that no reader turns them into floating point.
 */
export function invoiceJson(invoice: IssuedInvoice) {
  return {
    kind: invoice.kind,
    number: invoice.number,
    issuedAt: invoice.issuedAt.toISOString(),
    seller: invoice.seller,
    buyer: invoice.buyer,
    placeOfSupply: invoice.placeOfSupply,
    sac: invoice.sac,
    rate: invoice.ratePercent,
    exportLut: invoice.exportLut,
    servicePeriod: invoice.servicePeriod,
    ...amountsOf(invoice.lines),
    currency: invoice.currency,
    description: invoice.description,
    // Informational: the tax above is on `total`, what was paid.
    offer: invoice.offer && {
      code: invoice.offer.code,
      listPrice: inr(invoice.offer.listPricePaise),
      discount: inr(invoice.offer.discountPaise),
    },
    orderId: invoice.orderId,
    subscriptionId: invoice.subscriptionId,
    paymentId: invoice.paymentId,
    creditNotes: invoice.creditNotes.map((note) => ({
      number: note.number,
      issuedAt: note.issuedAt.toISOString(),
      invoiceNumber: note.invoiceNumber,
      refundId: note.refundId,
      reason: note.reason,
      ...amountsOf(note.lines),
    })),
  };
}

export type InvoiceJson = ReturnType<typeof invoiceJson>;

/** The export's columns, in order: what the seller's accountant files (GSTR-1) from. */
export const EXPORT_COLUMNS = [
  'type',
  'number',
  'date',
  'buyerGstin',
  'placeOfSupply',
  'taxable',
  'cgst',
  'sgst',
  'igst',
  'total',
  'paymentId',
  'refundId',
  'invoiceNumber',
  'invoiceDate',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | null>;

/** One export row per document: its date in India time, amounts in INR with two decimals. */
export function exportRow(row: DocumentRow): ExportRow {
  return {
    type: row.type,
    number: row.number,
    date: indiaDate(row.issuedAt),
    buyerGstin: row.buyerGstin,
    placeOfSupply: row.placeOfSupply,
    ...amountsOf(row),
    paymentId: row.paymentId,
    refundId: row.refundId,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: row.invoiceIssuedAt && indiaDate(row.invoiceIssuedAt),
  };
}

/** The rows as CSV with a header line, lines ending CRLF (RFC 4180). */
export function exportCsv(rows: ExportRow[]): string {
  return [EXPORT_COLUMNS, ...rows.map((row) => EXPORT_COLUMNS.map((c) => row[c]))].map(csvLine).join('');
}

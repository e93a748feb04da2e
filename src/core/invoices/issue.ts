import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { selectRows } from '../db/database';
import { withPlainTransaction, type PlainTransaction } from '../db/plain-transaction';
import type { PlainQuery } from '../db/plain-query';
import { EXPORT_PLACE } from '../gst';
import type { Billing } from './billing';
import type { ServicePeriod } from './period';
import { financialYearOf, numberHead } from './numbering';
import { INVOICE_TO_CREDIT, ISSUE_CREDIT_NOTE, issueInvoiceSql } from './sql';
import { splitTax, untaxed, type TaxLines } from './tax';
import type { InvoiceKind } from './types';

/** The receipts' series, when the seller has no GSTIN. */
export const RECEIPT_PREFIX = 'RCPT';

/** A captured payment an invoice is issued for: an order's, or a subscription charge's. */
export interface InvoiceSubject {
  paymentId: string;
  /** In paise, GST included. */
  totalPaise: number;
  currency: string;
  buyer: { userId: number; username: string };
  billing: Billing;
  /** What was sold, as the document's line says it. */
  description: string;
  /** The days the service covers, printed on the line. */
  period: ServicePeriod;
  /** Our row ids: exactly one of them. */
  orderId: number | null;
  subscriptionId: number | null;
}

export interface IssueOptions {
  transaction: Transaction | PlainTransaction;
  /** The issue's instant, which also picks the financial year; now unless a test says otherwise. */
  at?: Date;
}

const sellerStateOf = (settings: InvoiceSettings) => settings.sellerGstin?.slice(0, 2) ?? null;

/**
 * The place of supply: the buyer's state, or 96 (Other Countries) for a buyer abroad. Only an order or
 * subscription made before the state was required (STATE_REQUIRED) has neither; its buyer's address is
 * not on record, and the IGST Act (section 12(2)(b)(ii)) then places the supply at the seller's.
 */
function placeOfSupplyOf(billing: Billing, sellerState: string | null): string | null {
  if (billing.country !== null) return EXPORT_PLACE;
  return billing.stateCode ?? billing.gstin?.slice(0, 2) ?? sellerState;
}

/**
 * The document's kind, series, place of supply, rate and lines, from the settings it is issued under. An
 * export under the seller's LUT is zero-rated: rate 0, no IGST, the LUT copied onto the invoice; without
 * an LUT an export pays IGST at the rate.
 */
function documentOf(settings: InvoiceSettings, subject: InvoiceSubject) {
  const sellerState = sellerStateOf(settings);
  const placeOfSupply = placeOfSupplyOf(subject.billing, sellerState);
  if (settings.sellerGstin === null) {
    const kind: InvoiceKind = 'receipt';
    return {
      kind,
      prefix: RECEIPT_PREFIX,
      placeOfSupply,
      rate: 0,
      sac: null,
      lut: null,
      lines: untaxed(subject.totalPaise),
    };
  }
  const kind: InvoiceKind = 'invoice';
  const lut = placeOfSupply === EXPORT_PLACE ? settings.lut : null;
  const rate = lut === null ? settings.ratePercent : 0;
  return {
    kind,
    prefix: settings.invoicePrefix,
    placeOfSupply,
    rate,
    sac: settings.sac,
    lut,
    lines: splitTax(subject.totalPaise, rate, placeOfSupply === sellerState),
  };
}

/**
 * The statement that issues `subject`'s invoice (or receipt) unless its payment has one. With
 * `orderPaidHere`, only when the transaction marked the order paid (see issueInvoiceSql).
 */
export function invoiceStatement(
  settings: InvoiceSettings,
  subject: InvoiceSubject,
  { at = new Date(), orderPaidHere = false }: { at?: Date; orderPaidHere?: boolean } = {},
): PlainQuery {
  const document = documentOf(settings, subject);
  const financialYear = financialYearOf(at);
  const { lines } = document;
  return {
    name: orderPaidHere ? 'issue-invoice-of-order' : 'issue-invoice',
    text: issueInvoiceSql(orderPaidHere),
    values: [
      subject.paymentId,
      document.kind,
      financialYear,
      numberHead(document.prefix, financialYear),
      at,
      subject.orderId,
      subject.subscriptionId,
      subject.buyer.userId,
      subject.description,
      settings.sellerGstin,
      settings.sellerName,
      settings.sellerAddress,
      sellerStateOf(settings),
      subject.billing.name ?? subject.buyer.username,
      subject.billing.gstin,
      subject.billing.stateCode,
      document.placeOfSupply,
      document.sac,
      document.rate,
      lines.taxable,
      lines.cgst,
      lines.sgst,
      lines.igst,
      lines.total,
      subject.currency,
      subject.billing.address,
      subject.billing.pincode,
      subject.billing.country,
      document.lut,
      subject.period.from,
      subject.period.to,
    ],
  };
}

/**
 * Issues the invoice of a captured payment in the caller's transaction, the one that applies the
 * payment: numbered in its series and financial year, or the payment's invoice already issued
 * (`replayed`). Call it last in the transaction: it holds the series' lock until the commit.
 */
export async function issueInvoice(
  sequelize: Sequelize,
  settings: InvoiceSettings,
  subject: InvoiceSubject,
  options: IssueOptions,
): Promise<{ number: string; replayed: boolean }> {
  return withPlainTransaction(sequelize, options.transaction, async (transaction) => {
    const [issued] = await transaction.rows<{ number: string; replayed: boolean }>(
      invoiceStatement(settings, subject, { at: options.at }),
    );
    return issued!;
  });
}

/** A refund a credit note is issued for. */
export interface CreditedRefund {
  paymentId: string;
  /** Razorpay's refund id; null when the reconciler found the payment refunded and Razorpay named none. */
  refundId: string | null;
  /** This refund, in paise, when known. */
  amountPaise?: number;
  /** Everything refunded of the payment so far, this refund included, in paise: the credit notes never exceed it. */
  refundedTotal: number;
}

/** The credit note's reason line (Rule 53 asks for none, the accountant and the buyer do). */
const creditReason = (amount: number, left: number) =>
  amount === left ? 'Refund of the payment: the supply is cancelled' : 'Partial refund of the payment';

/**
 * Issues the credit note of a processed refund, in the caller's transaction (which holds the payment's
 * order or charge locked): for the refund's amount, but never past what the payment's refunds exceed the
 * credit notes by, nor past the invoice's total; with the invoice's place of supply and rate, its lines
 * split from its own total. Once per refund id; a refund Razorpay did not name (the reconciler's)
 * credits what the refunds exceed the credit notes by. Nothing when the payment has no invoice (applied
 * before invoices existed, or never applied: a refund before its payment). Call it last in the
 * transaction, as issueInvoice.
 */
export async function issueCreditNote(
  transaction: Transaction,
  settings: Pick<InvoiceSettings, 'creditNotePrefix'>,
  refund: CreditedRefund,
  at: Date = new Date(),
): Promise<string | null> {
  const [invoice] = await selectRows<{
    id: number;
    kind: InvoiceKind;
    placeOfSupply: string | null;
    sellerStateCode: string | null;
    ratePercent: string;
    totalPaise: number;
    credited: number;
    refundCredited: boolean;
  }>(transaction, INVOICE_TO_CREDIT, [refund.paymentId, refund.refundId]);
  if (!invoice || invoice.refundCredited) return null;
  // What the payment's refunds exceed the credit notes by: a refund the reconciler found unnamed, then
  // named by its webhook, is credited once.
  const owed = refund.refundedTotal - invoice.credited;
  const amount = Math.min(refund.amountPaise ?? owed, owed, invoice.totalPaise - invoice.credited);
  if (amount <= 0) return null;
  const lines: TaxLines =
    invoice.kind === 'invoice'
      ? splitTax(amount, Number(invoice.ratePercent), invoice.placeOfSupply === invoice.sellerStateCode)
      : untaxed(amount);
  const financialYear = financialYearOf(at);
  const [issued] = await selectRows<{ number: string }>(transaction, ISSUE_CREDIT_NOTE, [
    financialYear,
    numberHead(settings.creditNotePrefix, financialYear),
    invoice.id,
    refund.refundId,
    at,
    lines.taxable,
    lines.cgst,
    lines.sgst,
    lines.igst,
    lines.total,
    creditReason(amount, invoice.totalPaise - invoice.credited),
  ]);
  return issued!.number;
}

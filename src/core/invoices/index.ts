/**
 * Tax invoices, receipts and credit notes (docs/invoices.md): issued by payments, subscription charges
 * and refunds inside their own transactions, read by the API, the console and the CLI.
 */
export {
  billingColumns,
  billingOfColumns,
  NO_BILLING,
  parseBilling,
  sameBilling,
  type Billing,
  type BillingInput,
} from './billing';
export { saveBilling, savedBilling } from './saved-billing';
export { chargePeriod, servicePeriod, type ServicePeriod } from './period';
export { describePurchase } from './description';
export { invoiceStatement, issueCreditNote, issueInvoice, type InvoiceSubject } from './issue';
export {
  documentsOfMonth,
  invoiceByNumber,
  invoiceOfPayment,
  listInvoices,
  ownCreditNote,
  ownInvoice,
} from './read';
export { exportCsv, exportRow, invoiceJson, type InvoiceJson } from './views';
export type { InvoiceOffer, IssuedCreditNote, IssuedInvoice } from './types';
export { gstr1Files, returnPeriod, type ReturnPeriod } from './gstr1-export';
export { turnoverOfLastYear, type Turnover } from './turnover';

import type { Command } from 'commander';
import type { IssuedInvoice } from '../../core/invoices';
import { day, positiveInteger, snowflake } from '../arguments';
import { table } from '../format';
import type { Session } from '../session';
import { invoiceDate, rupees } from '../invoices-render';

interface ListOptions {
  user?: string;
  from?: string;
  to?: string;
  limit: number;
}

const credited = (invoice: IssuedInvoice) =>
  invoice.creditNotes.reduce((sum, note) => sum + note.lines.total, 0);

function render(invoices: IssuedInvoice[]): string {
  if (invoices.length === 0) return 'No invoices.';
  return table(
    ['NUMBER', 'DATE (IST)', 'BUYER', 'GSTIN', 'PLACE', 'TAXABLE', 'TAX', 'TOTAL', 'CREDITED', 'PAYMENT'],
    invoices.map((invoice) => [
      invoice.number,
      invoiceDate(invoice.issuedAt),
      `${invoice.buyer.name} (${invoice.buyerProviderId})`,
      invoice.buyer.gstin ?? '-',
      invoice.placeOfSupply ?? '-',
      rupees(invoice.lines.taxable),
      rupees(invoice.lines.cgst + invoice.lines.sgst + invoice.lines.igst),
      rupees(invoice.lines.total),
      credited(invoice) === 0 ? '-' : rupees(credited(invoice)),
      invoice.paymentId,
    ]),
  );
}

export function registerInvoicesList(invoices: Command, session: Session): void {
  invoices
    .command('list')
    .description('invoices (or receipts) with what their credit notes credit, oldest first')
    .option('--user <providerId>', "only this buyer's", snowflake)
    .option('--from <YYYY-MM-DD>', 'issued on this day (India time) or later', day)
    .option('--to <YYYY-MM-DD>', 'issued on this day (India time) or earlier', day)
    .option('--limit <n>', 'at most this many', positiveInteger, 1000)
    .action(async (options: ListOptions) => {
      const { listInvoices, invoiceJson } =
        require('../../core/invoices') as typeof import('../../core/invoices');
      const { indiaDayStart } =
        require('../../core/invoices/numbering') as typeof import('../../core/invoices/numbering');
      const found = await listInvoices(session.core().sequelize, {
        user: options.user,
        from: options.from === undefined ? undefined : indiaDayStart(options.from),
        to: options.to === undefined ? undefined : indiaDayStart(options.to, 1),
        limit: options.limit,
      });
      if (session.options.json) session.emit({ invoices: found.map(invoiceJson) }, () => '');
      else session.emit(found, render);
    });
}

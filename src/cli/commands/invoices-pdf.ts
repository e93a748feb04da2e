import type { Command } from 'commander';
import { documentNumberArgument } from '../arguments';
import { UsageError } from '../errors';
import type { Session } from '../session';

export function registerInvoicesPdf(invoices: Command, session: Session): void {
  invoices
    .command('pdf')
    .description(
      'an invoice, receipt or credit note as PDF, on stdout: premium invoices pdf INV/2627/000001 > invoice.pdf',
    )
    .argument('<number>', 'INV/2627/000001, RCPT/… or CN/…', documentNumberArgument)
    .action(async (number: string) => {
      if (process.stdout.isTTY) {
        throw new UsageError(
          'stdout is a terminal: send the PDF to a file (premium invoices pdf <number> > invoice.pdf)',
        );
      }
      const { invoiceByNumber } = require('../../core/invoices') as typeof import('../../core/invoices');
      const { creditNotePdf, invoicePdf } =
        require('../../core/invoices/pdf') as typeof import('../../core/invoices/pdf');
      const invoice = await invoiceByNumber(session.core().sequelize, number);
      const note = invoice.creditNotes.find((candidate) => candidate.number === number);
      const pdf = note ? await creditNotePdf(invoice, note) : await invoicePdf(invoice);
      await new Promise<void>((resolve, reject) =>
        process.stdout.write(pdf, (error) => (error ? reject(error) : resolve())),
      );
    });
}

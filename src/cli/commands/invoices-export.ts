import type { Command } from 'commander';
import { month } from '../arguments';
import type { Session } from '../session';

export function registerInvoicesExport(invoices: Command, session: Session): void {
  invoices
    .command('export')
    .description(
      "the month's invoices, receipts and credit notes (India time) as CSV, one row each, for the accountant's GSTR-1",
    )
    .requiredOption('--month <YYYY-MM>', 'the month, in India time', month)
    .action(async (options: { month: string }) => {
      const { documentsOfMonth, exportCsv, exportRow } =
        require('../../core/invoices') as typeof import('../../core/invoices');
      const rows = (await documentsOfMonth(session.core().sequelize, options.month)).map(exportRow);
      if (session.options.json) {
        session.emit(rows, () => '');
        return;
      }
      // Written as it is: every field is a number, an amount, a checked GSTIN or a Razorpay id.
      await new Promise<void>((resolve, reject) =>
        process.stdout.write(exportCsv(rows), (error) => (error ? reject(error) : resolve())),
      );
    });
}

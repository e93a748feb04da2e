import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { month } from '../arguments';
import { UsageError } from '../errors';
import type { Session } from '../session';

interface ExportOptions {
  month?: string;
  quarter?: string;
  format: 'csv' | 'gstr1';
  out?: string;
}

function quarter(value: string): string {
  if (!/^\d{4}-Q[1-4]$/.test(value)) throw new InvalidArgumentError('expected a quarter like 2026-Q2.');
  return value;
}

/** The GSTR-1 files into `options.out`, one line each (file, rows), or the list as JSON. */
async function exportGstr1(session: Session, options: ExportOptions): Promise<void> {
  const { gstr1Files, returnPeriod } = require('../../core/invoices') as typeof import('../../core/invoices');
  if (!options.out) throw new UsageError('--format gstr1 writes files: name the folder with --out DIR');
  const period = returnPeriod(options);
  const files = await gstr1Files(session.core().sequelize, period);
  fs.mkdirSync(options.out, { recursive: true });
  for (const file of files) fs.writeFileSync(path.join(options.out, file.name), file.csv);
  const written = files.map((file) => ({ file: path.join(options.out!, file.name), rows: file.rows }));
  session.emit({ period: period.label, files: written }, () =>
    written.map((file) => `${file.file}: ${file.rows} rows\n`).join(''),
  );
}

export function registerInvoicesExport(invoices: Command, session: Session): void {
  invoices
    .command('export')
    .description(
      "the period's documents for the accountant: every invoice, receipt and credit note as one CSV (--format csv), or GSTR-1's tables as the GST offline tool imports them (--format gstr1 --out DIR)",
    )
    .option('--month <YYYY-MM>', 'the month, in India time', month)
    .option(
      '--quarter <YYYY-Qn>',
      'with --format gstr1: a calendar quarter (2026-Q2 is April to June)',
      quarter,
    )
    .addOption(new Option('--format <format>', 'what to write').choices(['csv', 'gstr1']).default('csv'))
    .option('--out <DIR>', 'with --format gstr1: the folder the files are written to')
    .action(async (options: ExportOptions) => {
      if (options.format === 'gstr1') {
        await exportGstr1(session, options);
        return;
      }
      if (!options.month || options.quarter || options.out) {
        throw new UsageError('--format csv takes --month YYYY-MM only');
      }
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

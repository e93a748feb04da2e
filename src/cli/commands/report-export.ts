import { once } from 'node:events';
import { Argument, type Command } from 'commander';
import type { CsvCell } from '../../core/csv';
import { EXPORTS } from '../../core/reports/export-kinds';
import { day } from '../arguments';
import type { Session } from '../session';

async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

export function registerReportExport(report: Command, session: Session): void {
  report
    .command('export')
    .description(
      'revenue by day, orders made or subscribers of a range of days (REPORT_TIMEZONE) as CSV on stdout, as the console downloads them',
    )
    .addArgument(new Argument('<what>', 'what to export').choices(EXPORTS))
    .requiredOption('--from <YYYY-MM-DD>', 'first day', day)
    .requiredOption('--to <YYYY-MM-DD>', 'last day, included', day)
    .action(async (what: string, range: { from: string; to: string }) => {
      const { exportTable } = require('../../core/reports') as typeof import('../../core/reports');
      const { csvLines } = require('../../core/csv') as typeof import('../../core/csv');
      const table = exportTable(session.core(), what, range);
      if (session.options.json) {
        const rows: Record<string, CsvCell>[] = [];
        for await (const row of table.rows)
          rows.push(Object.fromEntries(table.columns.map((column, i) => [column, row[i] ?? null])));
        session.emit(rows, () => '');
        return;
      }
      for await (const line of csvLines(table.columns, table.rows)) await write(line);
    });
}

import { Option, type Command } from 'commander';
import type { MoneyFigures, RevenueQuery, RevenueReport } from '../../core/reports';
import { day } from '../arguments';
import { table } from '../format';
import type { Session } from '../session';

const inr = (rupees: number) => rupees.toFixed(2);

function row(period: string, figures: MoneyFigures & Pick<RevenueReport['totals'], 'byKind' | 'byCategory'>) {
  return [
    period,
    inr(figures.gross),
    inr(figures.refunded),
    inr(figures.disputed),
    inr(figures.net),
    String(figures.payments),
    inr(figures.byKind.oneOff.net),
    inr(figures.byKind.subscription.net),
    inr(figures.byCategory.USER.net),
    inr(figures.byCategory.SERVER.net),
  ];
}

function render(report: RevenueReport): string {
  return [
    `Revenue in INR by ${report.by}, ${report.from} to ${report.to} (${report.timeZone}):`,
    table(
      [
        'PERIOD',
        'GROSS',
        'REFUNDED',
        'DISPUTED',
        'NET',
        'PAYMENTS',
        'NET ONE-OFF',
        'NET SUBS',
        'NET USER',
        'NET SERVER',
      ],
      [...report.periods.map((period) => row(period.period, period)), row('TOTAL', report.totals)],
    ),
  ].join('\n');
}

export function registerReportRevenue(report: Command, session: Session): void {
  report
    .command('revenue')
    .description('gross, refunded, disputed and net INR by day or month (in REPORT_TIMEZONE)')
    .option('--from <YYYY-MM-DD>', 'first day (default: 90 days, or 12 months, before --to)', day)
    .option('--to <YYYY-MM-DD>', 'last day, included (default: today)', day)
    .addOption(new Option('--by <period>', 'one row per').choices(['day', 'month']).default('day'))
    .action(async (options: RevenueQuery) => {
      const { revenueReport } = require('../../core/reports') as typeof import('../../core/reports');
      session.emit(await revenueReport(session.core(), options), render);
    });
}

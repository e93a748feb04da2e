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

/** A period anything happened in: a payment, or a refund or dispute of an earlier one. */
const active = (figures: MoneyFigures) =>
  figures.payments > 0 || figures.gross !== 0 || figures.refunded !== 0 || figures.disputed !== 0;

const plural = (count: number, by: RevenueReport['by']) => `${count} ${by}${count === 1 ? '' : 's'}`;

/**
 * Only the periods something happened in, and the totals: ninety rows of zeros hid the few that mattered.
 * Then the range's figures by tier, by plan and by what was bought. `--json` keeps every period, each
 * with its own split, for charts and spreadsheets.
 */
function render(report: RevenueReport): string {
  const range = `${report.from} to ${report.to} (${report.timeZone})`;
  const shown = report.periods.filter(active);
  if (shown.length === 0) return `No payments, refunds or disputes from ${range}.`;
  const quiet = report.periods.length - shown.length;
  return [
    `Revenue in INR by ${report.by}, ${range}:`,
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
      [...shown.map((period) => row(period.period, period)), row('TOTAL', report.totals)],
    ),
    ...(quiet > 0 ? [`Not shown: ${plural(quiet, report.by)} with nothing paid, refunded or disputed.`] : []),
    '',
    `By tier, ${range}:`,
    split('TIER', report.totals.byTier, report.names.tiers),
    '',
    `By plan, ${range}:`,
    split('PLAN', report.totals.byPlan, report.names.plans),
    '',
    `By purchase, ${range}:`,
    split(
      'BOUGHT',
      Object.fromEntries(Object.entries(report.totals.byPurchase).filter(([, figures]) => active(figures))),
      {},
    ),
  ].join('\n');
}

/**
 * The range's figures of each tier (or plan), highest net first, indented under their heading, each
 * by the name buyers read and its code.
 */
function split(heading: string, parts: Record<string, MoneyFigures>, names: Record<string, string>): string {
  const rows = Object.entries(parts).sort(([a, x], [b, y]) => y.net - x.net || (a < b ? -1 : 1));
  const indent = (text: string) => text.replace(/^/gm, '  ');
  return indent(
    table(
      [heading, 'GROSS', 'REFUNDED', 'DISPUTED', 'NET', 'PAYMENTS'],
      rows.map(([code, figures]) => [
        names[code] === undefined || names[code] === code ? code : `${names[code]} (${code})`,
        inr(figures.gross),
        inr(figures.refunded),
        inr(figures.disputed),
        inr(figures.net),
        String(figures.payments),
      ]),
    ),
  );
}

export function registerReportRevenue(report: Command, session: Session): void {
  report
    .command('revenue')
    .description(
      'gross, refunded, disputed and net INR by day or month (in REPORT_TIMEZONE), and by tier, plan and purchase',
    )
    .option('--from <YYYY-MM-DD>', 'first day (default: 90 days, or 12 months, before --to)', day)
    .option('--to <YYYY-MM-DD>', 'last day, included (default: today)', day)
    .addOption(new Option('--by <period>', 'one row per').choices(['day', 'month']).default('day'))
    .action(async (options: RevenueQuery) => {
      const { revenueReport } = require('../../core/reports') as typeof import('../../core/reports');
      session.emit(await revenueReport(session.core(), options), render);
    });
}

import type { Command } from 'commander';
import type { LiveStanding, SubscribersReport } from '../../core/reports';
import { month } from '../arguments';
import { fields, section, table } from '../format';
import type { Session } from '../session';
import { timeOf } from '../subscriptions-render';

/** What each part of MRR is: what renews, what ends with its cycle, what a failed charge holds up. */
const STANDING_LABELS: Record<LiveStanding, string> = {
  renewing: 'renewing',
  cancelling: 'ending at cycle end',
  failing: 'failing (pending)',
};

const percent = (churn: number | null) => (churn === null ? '-' : `${(churn * 100).toFixed(2)}%`);

function render(report: SubscribersReport): string {
  const statuses = Object.entries(report.byStatus)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  return [
    fields([
      ['Live', `${report.live} (${statuses || 'none'})`],
      ['MRR', `${report.mrr.toFixed(2)} INR`],
      ...(
        Object.entries(report.liveByStanding) as [LiveStanding, { subscriptions: number; mrr: number }][]
      ).map(([standing, { subscriptions, mrr }]): [string, string] => [
        `  ${STANDING_LABELS[standing]}`,
        `${mrr.toFixed(2)} INR, ${subscriptions} subscription(s)`,
      ]),
      ['Churn', `${percent(report.churn)} (${report.movements.at(-1)!.period}, ${report.timeZone})`],
      ['Active premium', `${report.activePremium.USER} user(s), ${report.activePremium.SERVER} guild(s)`],
    ]),
    section(
      'By month',
      table(
        ['MONTH', 'LIVE AT START', 'NEW', 'RENEWED', 'CANCELLED', 'HALTED', 'COMPLETED', 'CHURN'],
        report.movements.map((m) => [
          m.period,
          String(m.liveAtStart),
          String(m.new),
          String(m.renewed),
          String(m.cancelled),
          String(m.halted),
          String(m.completed),
          percent(m.churn),
        ]),
      ),
    ),
    section(
      'Charges failing now',
      report.failingCharges.length === 0
        ? 'None.'
        : table(
            ['SUBSCRIPTION', 'STATUS', 'BUYER', 'FOR', 'PLAN', 'INR', 'GRACE ENDS'],
            report.failingCharges.map((c) => [
              c.subscriptionId,
              c.status,
              `${c.buyerName} (${c.providerId})`,
              c.guildId ?? 'USER',
              c.planType,
              c.amount.toFixed(2),
              timeOf(c.graceUntil),
            ]),
          ),
    ),
  ].join('\n');
}

export function registerReportSubscribers(report: Command, session: Session): void {
  report
    .command('subscribers')
    .description('live subscriptions, MRR, churn, active premium and the charges failing now')
    .option('--month <YYYY-MM>', 'the month whose movements and churn to show (default: this one)', month)
    .action(async (options: { month?: string }) => {
      const { subscribersReport } = require('../../core/reports') as typeof import('../../core/reports');
      session.emit(await subscribersReport(session.core(), options), render);
    });
}

import type { Command } from 'commander';
import type { OpenDispute } from '../../core/reports';
import { table } from '../format';
import type { Session } from '../session';

function render({ disputes }: { disputes: OpenDispute[] }): string {
  if (disputes.length === 0) return 'No open disputes.';
  return table(
    ['DISPUTE', 'RESPOND BY', 'INR', 'ORDER / SUBSCRIPTION', 'PAYMENT', 'BUYER', 'OPENED'],
    disputes.map((d) => [
      d.disputeId,
      d.respondBy ?? '-',
      d.amount.toFixed(2),
      d.orderId ?? d.subscriptionId ?? '-',
      d.paymentId ?? '-',
      `${d.buyerName} (${d.providerId})`,
      d.openedAt,
    ]),
  );
}

export function registerReportDisputes(report: Command, session: Session): void {
  report
    .command('disputes')
    .description("open disputes, soonest Razorpay's respond_by first")
    .action(async () => {
      const { openDisputes } = require('../../core/reports') as typeof import('../../core/reports');
      session.emit({ disputes: await openDisputes(session.core()) }, render);
    });
}

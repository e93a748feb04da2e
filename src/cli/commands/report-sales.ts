import type { Command } from 'commander';
import type { Sale } from '../../core/reports';
import { shownTime, rupees, table } from '../format';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import type { Session } from '../session';

function render({ sales, nextCursor }: { sales: Sale[]; nextCursor: string | null }): string {
  if (sales.length === 0) return 'No sales yet.';
  return (
    table(
      ['PAID', 'BUYER', 'ORDER / SUBSCRIPTION', 'FOR', 'PLAN', 'AMOUNT', 'REFUNDED', 'STATE', 'BOUGHT'],
      sales.map((sale) => [
        shownTime(new Date(sale.at)),
        `${sale.buyerName} (${sale.buyerProviderId})`,
        sale.orderId ?? sale.subscriptionId ?? '-',
        sale.guildId === null
          ? 'USER'
          : sale.guildName
            ? `${sale.guildName} (${sale.guildId})`
            : `guild ${sale.guildId}`,
        sale.planType,
        rupees(sale.amount),
        sale.refunded > 0 ? rupees(sale.refunded) : '-',
        sale.state,
        sale.purchase,
      ]),
    ) + nextPageLine(nextCursor)
  );
}

export function registerReportSales(report: Command, session: Session): void {
  withPaging(
    report
      .command('sales')
      .description('the newest sales: paid orders and subscription charges, with the buyer by name'),
    'sales',
    50,
  ).action(async (options: PageOptions) => {
    const { recentSales } = require('../../core/reports') as typeof import('../../core/reports');
    const page = await recentSales(session.core(), options);
    session.emit({ sales: page.rows, nextCursor: page.nextCursor }, render);
  });
}

import type { Command } from 'commander';
import type { Customer } from '../../core/reports';
import { shownTime, rupees, table } from '../format';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import type { Session } from '../session';

function render({ customers, nextCursor }: { customers: Customer[]; nextCursor: string | null }): string {
  if (customers.length === 0) return 'No customers yet.';
  return (
    table(
      ['BUYER', 'BOUGHT', 'PAYMENTS', 'FIRST', 'LAST', 'GROSS', 'LIFETIME VALUE'],
      customers.map((customer) => [
        `${customer.buyerName} (${customer.providerId})`,
        customer.plans.join(', '),
        String(customer.payments),
        shownTime(new Date(customer.firstPurchaseAt)),
        shownTime(new Date(customer.lastPurchaseAt)),
        rupees(customer.gross),
        rupees(customer.lifetimeValue),
      ]),
    ) + nextPageLine(nextCursor)
  );
}

export function registerReportCustomers(report: Command, session: Session): void {
  withPaging(
    report
      .command('customers')
      .description('buyers, highest lifetime value (paid less refunds and lost disputes) first'),
    'customers',
    50,
  ).action(async (options: PageOptions) => {
    const { customers } = require('../../core/reports') as typeof import('../../core/reports');
    const page = await customers(session.core(), options);
    session.emit({ customers: page.rows, nextCursor: page.nextCursor }, render);
  });
}

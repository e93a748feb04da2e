import { Option, type Command } from 'commander';
import type { OrderSummary } from '../../core/admin/orders';
import type { OrderStatus } from '../../core/models';
import { since, snowflake } from '../arguments';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import { ordersTable } from '../render';
import type { Session } from '../session';

const STATUSES: OrderStatus[] = ['created', 'paid', 'refunded', 'disputed'];

interface ListOptions extends PageOptions {
  status?: OrderStatus;
  user?: string;
  since?: Date;
}

function render({ orders, nextCursor }: { orders: OrderSummary[]; nextCursor: string | null }): string {
  return ordersTable(orders) + nextPageLine(nextCursor);
}

export function registerOrdersList(orders: Command, session: Session): void {
  withPaging(
    orders
      .command('list')
      .description('orders, newest first, a page at a time')
      .addOption(new Option('--status <status>', 'only orders in this state').choices(STATUSES))
      .option('--user <providerId>', 'only orders this user placed', snowflake)
      .option('--since <when>', 'only orders created since: 30m, 72h, 7d, 2w or an ISO 8601 time', since),
    'orders',
    50,
  ).action(async (options: ListOptions) => {
    const { listOrders } = require('../../core/admin/orders') as typeof import('../../core/admin/orders');
    const page = await listOrders(session.core().sequelize, {
      status: options.status,
      providerId: options.user,
      since: options.since,
      limit: options.limit,
      cursor: options.cursor,
    });
    session.emit({ orders: page.rows, nextCursor: page.nextCursor }, render);
  });
}

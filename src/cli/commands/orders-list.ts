import { Option, type Command } from 'commander';
import { listOrders } from '../../core/admin/orders';
import type { OrderStatus } from '../../core/models';
import { positiveInteger, since, snowflake } from '../arguments';
import { ordersTable } from '../render';
import type { Session } from '../session';

const STATUSES: OrderStatus[] = ['created', 'paid', 'refunded', 'disputed'];

interface ListOptions {
  status?: OrderStatus;
  user?: string;
  since?: Date;
  limit: number;
}

export function registerOrdersList(orders: Command, session: Session): void {
  orders
    .command('list')
    .description('orders, newest first')
    .addOption(new Option('--status <status>', 'only orders in this state').choices(STATUSES))
    .option('--user <providerId>', 'only orders this user placed', snowflake)
    .option('--since <when>', 'only orders created since: 30m, 72h, 7d, 2w or an ISO 8601 time', since)
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: ListOptions) => {
      const found = await listOrders(session.core().sequelize, {
        status: options.status,
        providerId: options.user,
        since: options.since,
        limit: options.limit,
      });
      session.emit({ orders: found }, (result) => ordersTable(result.orders));
    });
}

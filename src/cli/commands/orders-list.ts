import { InvalidArgumentError, Option, type Command } from 'commander';
import { ORDER_STATES, type OrderState } from '../../core/admin/order-states';
import type { OrderSummary } from '../../core/admin/orders';
import { since, snowflake } from '../arguments';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import { ordersTable } from '../render';
import type { Session } from '../session';

/** A state as the list shows it, its spaces as hyphens (`payment-failed`) so that it needs no quotes. */
const typed = (state: OrderState) => state.replace(' ', '-');

/** `failed`: what an operator types after reading `payment failed`. */
function orderStateArgument(value: string): OrderState {
  const state = ORDER_STATES.find((each) => [each, typed(each)].includes(value));
  if (state) return state;
  if (value === 'failed') return 'payment failed';
  throw new InvalidArgumentError(`expected one of ${ORDER_STATES.map(typed).join(', ')}.`);
}

interface ListOptions extends PageOptions {
  status?: OrderState;
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
      .addOption(
        new Option(
          '--status <state>',
          `only orders in this state, as the list shows it: ${ORDER_STATES.map(typed).join(', ')}`,
        ).argParser(orderStateArgument),
      )
      .option('--user <providerId>', 'only orders this user placed', snowflake)
      .option('--since <when>', 'only orders created since: 30m, 72h, 7d, 2w or an ISO 8601 time', since),
    'orders',
    50,
  ).action(async (options: ListOptions) => {
    const { listOrders } = require('../../core/admin/orders') as typeof import('../../core/admin/orders');
    const page = await listOrders(session.core().sequelize, {
      state: options.status,
      providerId: options.user,
      since: options.since,
      limit: options.limit,
      cursor: options.cursor,
    });
    session.emit({ orders: page.rows, nextCursor: page.nextCursor }, render);
  });
}

import type { Core } from '..';
import { decodeCursor, encodeCursor, toPage, type Page } from '../admin/cursor';
import { orderState } from '../admin/orders';
import type { OrderStatus } from '../models';
import { inr, select } from './select';
import { SALES_SQL } from './sql';
import type { Sale } from './types';

type SaleRow = Omit<Sale, 'at' | 'amount' | 'refunded' | 'state'> & {
  at: Date;
  keyTime: string;
  id: number;
  amountPaise: number;
  refundedPaise: number;
  status: OrderStatus;
};

/** The first page's keyset: before every sale. */
const FIRST: [string, string, number] = ['infinity', 'order', 0];

/**
 * The newest sales, paid orders and subscription charges together, a page at a time (`SALES_SQL`): the
 * console's Sales and `premium report sales`.
 */
export async function recentSales(
  core: Pick<Core, 'sequelize'>,
  page: { limit: number; cursor?: string },
): Promise<Page<Sale>> {
  const after = page.cursor === undefined ? FIRST : decodeCursor('sales', page.cursor, 3);
  const rows = await select<SaleRow>(core.sequelize, SALES_SQL, [...after, page.limit + 1]);
  const shown = toPage(rows, page.limit, (row) => encodeCursor('sales', [row.keyTime, row.kind, row.id]));
  return {
    rows: shown.rows.map(({ at, keyTime: _key, id: _id, amountPaise, refundedPaise, status, ...sale }) => ({
      ...sale,
      at: at.toISOString(),
      amount: inr(amountPaise),
      refunded: inr(refundedPaise),
      state: orderState({ status, paymentFailedAt: null, refundedPaise }),
    })),
    nextCursor: shown.nextCursor,
  };
}

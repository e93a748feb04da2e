import type { Core } from '..';
import { decodeCursor, encodeCursor, toPage, type Page } from '../admin/cursor';
import { inr, select } from './select';
import { CUSTOMERS_SQL } from './sql';
import type { Customer } from './types';

interface CustomerRow extends Omit<
  Customer,
  'gross' | 'lifetimeValue' | 'firstPurchaseAt' | 'lastPurchaseAt'
> {
  id: number;
  ltvPaise: string;
  grossPaise: string;
  firstPurchaseAt: Date;
  lastPurchaseAt: Date;
}

/** The first page's keyset: above any lifetime value. */
const FIRST = [String(Number.MAX_SAFE_INTEGER), '0'];

/** Buyers, highest lifetime value first, a page at a time (`CUSTOMERS_SQL`): the console's Customers and `premium report customers`. */
export async function customers(
  core: Pick<Core, 'sequelize'>,
  page: { limit: number; cursor?: string },
): Promise<Page<Customer>> {
  const after = page.cursor === undefined ? FIRST : decodeCursor('customers', page.cursor, 2);
  const rows = await select<CustomerRow>(core.sequelize, CUSTOMERS_SQL, [...after, page.limit + 1]);
  const shown = toPage(rows, page.limit, (row) => encodeCursor('customers', [row.ltvPaise, String(row.id)]));
  return {
    rows: shown.rows.map(
      ({ id: _id, ltvPaise, grossPaise, firstPurchaseAt, lastPurchaseAt, ...customer }) => ({
        ...customer,
        gross: inr(grossPaise),
        lifetimeValue: inr(ltvPaise),
        firstPurchaseAt: firstPurchaseAt.toISOString(),
        lastPurchaseAt: lastPurchaseAt.toISOString(),
      }),
    ),
    nextCursor: shown.nextCursor,
  };
}

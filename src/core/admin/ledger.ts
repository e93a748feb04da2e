import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { PremiumChange } from '../premium/types';
import { decodeCursor, encodeCursor, toPage, type Page, type PageKey } from './cursor';
import { Conditions, LEDGER_OF_ORDER, LEDGER_OF_ORDER_PARAMS, listLedger as listLedgerSql } from './sql';

/** One row of the premium ledger as an operator reads it. */
export interface LedgerEntry extends Pick<
  PremiumChange,
  | 'grantId'
  | 'kind'
  | 'category'
  | 'providerId'
  | 'guildId'
  | 'planType'
  | 'days'
  | 'expiresBefore'
  | 'source'
> {
  expiresAfter: Date;
  actor: string;
  reason: string | null;
  /** The processor's order id. */
  orderId: string | null;
  revokesGrantId: number | null;
  /** For a grant: the revoke that took it back, if any. */
  revokedByGrantId: number | null;
  createdAt: Date;
}

/**
 * The newest ledger rows of one user, one guild or one order, a page at a time: keyset on (created_at, id), through
 * `premium_grants_user` or `premium_grants_order`. An order's rows include the grants its payment paid for
 * after its own was revoked (a partial refund's rest, a won dispute's restore) and their revokes, which
 * do not carry its id (`LEDGER_OF_ORDER`).
 */
export async function listLedger(
  sequelize: Sequelize,
  filter: { userId?: number; guildId?: string; orderId?: number; limit: number; cursor?: string },
): Promise<Page<LedgerEntry>> {
  const after = filter.cursor === undefined ? undefined : decodeCursor('ledger', filter.cursor, 2);
  const where = new Conditions()
    .add('g.user_id = ?', filter.userId)
    .add('g.guild_id = ?', filter.guildId)
    .add(LEDGER_OF_ORDER, ...orderIdTimes(filter.orderId))
    .add('(g.created_at, g.id) < (?::timestamptz, ?::bigint)', after?.[0], after?.[1]);
  const rows = await selectRows<LedgerEntry & PageKey>(
    sequelize,
    listLedgerSql(where, where.param(filter.limit + 1)),
    where.bind,
  );
  const page = toPage(rows, filter.limit, (row) => encodeCursor('ledger', [row.keyTime, row.id]));
  return {
    rows: page.rows.map(({ id: _id, keyTime: _keyTime, ...row }) => row),
    nextCursor: page.nextCursor,
  };
}

/** The order's id once per placeholder of `LEDGER_OF_ORDER`, or nothing without an order. */
function orderIdTimes(orderId: number | undefined): [unknown, ...unknown[]] {
  return orderId === undefined ? [undefined] : [orderId, ...Array(LEDGER_OF_ORDER_PARAMS - 1).fill(orderId)];
}

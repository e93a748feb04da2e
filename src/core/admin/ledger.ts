import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { PremiumChange } from '../premium/types';
import { decodeCursor, encodeCursor, toPage, type Page, type PageKey } from './cursor';
import { Conditions, listLedger as listLedgerSql } from './sql';

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
 * `premium_grants_user` or `premium_grants_order`.
 */
export async function listLedger(
  sequelize: Sequelize,
  filter: { userId?: number; guildId?: string; orderId?: number; limit: number; cursor?: string },
): Promise<Page<LedgerEntry>> {
  const after = filter.cursor === undefined ? undefined : decodeCursor('ledger', filter.cursor, 2);
  const where = new Conditions()
    .add('g.user_id = ?', filter.userId)
    .add('g.guild_id = ?', filter.guildId)
    .add('g.order_id = ?', filter.orderId)
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

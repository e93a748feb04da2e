import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import type { RecordTarget } from './records';

/** What one grant put on a record and what is left of it now, in milliseconds. */
export interface GrantRemainder {
  grantId: number;
  userId: number;
  /** What the grant added: its days, or more when a floor (a subscription's grace) raised the record further. */
  contributionMs: number;
  remainingMs: number;
  /** A revoke of it took (some of) its days: a refund, a dispute, a transfer, an operator. */
  revoked: boolean;
}

/**
 * Who owns which part of a record (docs/money-rules.md): the record's time left is the tail of a queue of
 * its grants in ledger order, each as long as what it added (less what a revoke of it took). Time runs out
 * oldest grant first, so what is left belongs to the newest grants: walking back from the newest, each
 * holds the lesser of its own length and what is not yet claimed by newer ones. A grant whose days a
 * transfer made before 012 moved away (the whole guild at once) holds nothing here.
 */
const REMAINDERS_SQL = (category: 'USER' | 'SERVER') => `
  WITH left_now AS (
    SELECT GREATEST(extract(epoch FROM r.expires_at - now()), 0) * 1000 AS ms
    FROM ${category === 'USER' ? 'user_premiums r WHERE r.user_id = $1::bigint' : 'server_premiums r WHERE r.guild_id = $1::text'}
      AND r.version > 0),
  grants AS (
    SELECT g.id, g.user_id,
      extract(epoch FROM g.expires_after - GREATEST(g.expires_before, g.created_at)) * 1000 AS contribution,
      COALESCE(extract(epoch FROM taken.expires_before - taken.expires_after) * 1000, 0) AS taken,
      taken.id IS NOT NULL AS revoked
    FROM premium_grants g
    LEFT JOIN premium_grants taken ON taken.revokes_grant_id = g.id
    WHERE g.kind = 'grant' AND g.category = '${category}'
      AND ${category === 'USER' ? 'g.user_id = $1::bigint' : 'g.guild_id = $1::text'}
      AND NOT EXISTS (
        SELECT 1 FROM premium_transfers t JOIN premium_grants moved ON moved.id = t.remove_grant_id
        WHERE t.from_guild_id = g.guild_id AND t.remove_grant_id > g.id AND moved.revokes_grant_id IS NULL)),
  queued AS (
    SELECT id, user_id, contribution, revoked, GREATEST(contribution - taken, 0) AS length,
      sum(GREATEST(contribution - taken, 0)) OVER (ORDER BY id DESC) AS through
    FROM grants)
  SELECT q.id AS "grantId", q.user_id AS "userId", q.contribution AS "contributionMs",
    GREATEST(LEAST(q.length, left_now.ms - (q.through - q.length)), 0) AS "remainingMs", q.revoked
  FROM queued q, left_now
  ORDER BY q.id`;

const SQL = { USER: REMAINDERS_SQL('USER'), SERVER: REMAINDERS_SQL('SERVER') };

/** Every grant of a record (locked by the caller) with what is left of it now; none for a record never granted. */
export async function grantRemainders(
  transaction: Transaction,
  record: Pick<RecordTarget, 'category' | 'userId' | 'guildId'>,
): Promise<GrantRemainder[]> {
  const key = record.category === 'USER' ? record.userId : record.guildId;
  const rows = await selectRows<GrantRemainder>(transaction, SQL[record.category], [key]);
  return rows.map((row) => ({
    grantId: Number(row.grantId),
    userId: Number(row.userId),
    contributionMs: Number(row.contributionMs),
    remainingMs: Number(row.remainingMs),
    revoked: row.revoked,
  }));
}

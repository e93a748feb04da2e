import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { PlainQuery } from '../db/prepared-statements';
import type { Category } from './types';

/** Where each category's entitlement lives: one row per user, or one row per guild. */
export const RECORD_TABLES = {
  USER: { table: 'user_premiums', key: 'user_id' },
  SERVER: { table: 'server_premiums', key: 'guild_id' },
} as const;

export interface RecordTarget {
  category: Category;
  /** The user who holds a USER record, or who bought for a SERVER record. */
  userId: number;
  guildId: string | null;
}

export interface RecordState {
  /** null when the record did not exist before this transaction. */
  expiresAt: Date | null;
  version: number;
}

function keyOf(target: RecordTarget): string | number {
  return target.category === 'USER' ? target.userId : target.guildId!;
}

/**
 * Locks the target's record for the rest of the transaction, creating it first when missing. A record
 * created here carries version 0 until `setRecordExpiry` runs, so other transactions never see it.
 */
export async function lockRecord(transaction: Transaction, target: RecordTarget): Promise<RecordState> {
  const { table, key } = RECORD_TABLES[target.category];
  const buyer = target.category === 'SERVER';
  await execute(
    transaction,
    `INSERT INTO ${table} (${key}, ${buyer ? 'buyer_user_id, ' : ''}expires_at, version)
     VALUES ($1, ${buyer ? '$2, ' : ''}now(), 0) ON CONFLICT (${key}) DO NOTHING`,
    buyer ? [keyOf(target), target.userId] : [keyOf(target)],
  );
  const [row] = await selectRows<{ expires_at: Date; version: number }>(
    transaction,
    `SELECT expires_at, version FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
    [keyOf(target)],
  );
  return { expiresAt: row!.version === 0 ? null : row!.expires_at, version: row!.version };
}

/** What a revoke does to a record: take (part of) a grant's time back, or end it now. */
export type ExpiryChange = { shortenMs: number } | 'end';

/**
 * Shortens or ends a locked record and bumps its version (a grant extends it in grant-statement.ts). A
 * revoke that ends the record announces its own REMOVE, so it marks the record's expiry announced
 * (`expiry_announced_version`): the expiry job then never looks at it, nor at the ledger.
 */
export async function setRecordExpiry(
  transaction: Transaction,
  target: RecordTarget,
  change: ExpiryChange,
): Promise<{ expiresAt: Date; version: number }> {
  const { table, key } = RECORD_TABLES[target.category];
  const [newExpiry, bind] =
    change === 'end'
      ? ['LEAST(expires_at, now())', [keyOf(target)]]
      : // The days go back, never below now, and a past expiry never moves forward.
        [
          "LEAST(expires_at, GREATEST(expires_at - $2::double precision * interval '1 millisecond', now()))",
          [keyOf(target), change.shortenMs],
        ];
  const [row] = await selectRows<{ expires_at: Date; version: number }>(
    transaction,
    `UPDATE ${table} SET expires_at = ${newExpiry}, version = version + 1, updated_at = now(),
       expiry_announced_version =
         CASE WHEN ${newExpiry} <= now() THEN version + 1 ELSE expiry_announced_version END
     WHERE ${key} = $1 RETURNING expires_at, version`,
    bind,
  );
  return { expiresAt: row!.expires_at, version: row!.version };
}

/**
 * What each buyer's own premium gets from the guilds they bought for (docs/design.md, "Money rules"): only the days
 * they paid for themselves, never the days other buyers added to the same guild. Their standing grants
 * for a guild, in order, run back to back from when each was made (a queue: each starts at the later of
 * its own time and the end of the one before), and the guild's record caps the result, since a revoke of
 * anyone's grant shortens the guild for all. One row per (user_id, guild_id) of the users `userIds`
 * (an SQL expression of a bigint[]) names.
 */
const buyerGuildExpiries = (userIds: string) => `
  SELECT paid.user_id, paid.guild_id, LEAST(max(paid.paid_until), sp.expires_at) AS expires_at
  FROM (
    SELECT g.user_id, g.guild_id,
      g.created_at + make_interval(days => (sum(g.days) OVER (
        PARTITION BY g.user_id, g.guild_id ORDER BY g.created_at DESC, g.id DESC))::int) AS paid_until
    FROM premium_grants g
    WHERE g.user_id = ANY(${userIds}) AND g.category = 'SERVER' AND g.kind = 'grant'
      AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
  ) paid
  JOIN server_premiums sp ON sp.guild_id = paid.guild_id AND sp.version > 0
  GROUP BY paid.user_id, paid.guild_id, sp.expires_at`;

/** A record named by who holds (USER) or bought for (SERVER) it, before their user id is known. */
export interface RecordOwner {
  category: Category;
  providerId: string;
  guildId: string | null;
}

/**
 * Creates the owner's record when missing (version 0: invisible until its first change) and locks it.
 * `DO UPDATE … WHERE false` locks an existing row without writing a new version of it.
 */
export function claimRecord({ category, providerId, guildId }: RecordOwner): PlainQuery {
  return category === 'USER'
    ? {
        name: 'claim-user-record',
        text: `INSERT INTO user_premiums (user_id, expires_at, version)
               SELECT id, now(), 0 FROM users WHERE provider_id = $1
               ON CONFLICT (user_id) DO UPDATE SET version = user_premiums.version WHERE false`,
        values: [providerId],
      }
    : {
        name: 'claim-server-record',
        text: `INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version)
               SELECT $2, id, now(), 0 FROM users WHERE provider_id = $1
               ON CONFLICT (guild_id) DO UPDATE SET version = server_premiums.version WHERE false`,
        values: [providerId, guildId],
      };
}

/**
 * After a SERVER grant, written to the ledger: its buyer's expiry rises to what they paid for on that
 * guild (see buyerGuildExpiries), never by days other buyers gave it. Never lowers it.
 */
export function raiseBuyerExpiry({ providerId, guildId }: RecordOwner): PlainQuery {
  return {
    name: 'raise-buyer-expiry',
    text: `UPDATE users u SET updated_at = now(), premium_expires_at = GREATEST(u.premium_expires_at,
             (SELECT b.expires_at FROM (${buyerGuildExpiries('ARRAY[u.id]')}) b WHERE b.guild_id = $2))
           WHERE u.provider_id = $1`,
    values: [providerId, guildId],
  };
}

/**
 * After a revoke, written to the ledger: the expiry of each user the record counted for (the holder of a
 * USER record; every buyer of a guild) becomes the latest of what remains to them: their own record and
 * what they paid for on each guild, by the same rule as a grant.
 */
export async function recomputeHolderExpiries(transaction: Transaction, target: RecordTarget): Promise<void> {
  await execute(
    transaction,
    `WITH holders AS (
       SELECT array_agg(DISTINCT id) AS ids FROM (
         SELECT $1::bigint AS id
         UNION ALL
         SELECT user_id FROM premium_grants WHERE category = 'SERVER' AND guild_id = $2) h),
     remaining AS (
       SELECT up.user_id, up.expires_at FROM user_premiums up, holders
       WHERE up.user_id = ANY(holders.ids) AND up.version > 0
       UNION ALL
       SELECT b.user_id, b.expires_at FROM (${buyerGuildExpiries('(SELECT ids FROM holders)::bigint[]')}) b)
     UPDATE users u SET updated_at = now(),
       premium_expires_at = (SELECT max(expires_at) FROM remaining r WHERE r.user_id = u.id)
     FROM holders WHERE u.id = ANY(holders.ids)`,
    [target.userId, target.guildId],
  );
}

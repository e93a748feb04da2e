import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { Category } from './types';

/** Where each category's entitlement lives: one row per user, or one row per guild. */
const RECORD_TABLES = {
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

export type ExpiryChange =
  { extendDays: number; atLeastUntil?: Date | null } | { shortenDays: number } | 'end';

/** Changes a locked record's expiry and bumps its version. */
export async function setRecordExpiry(
  transaction: Transaction,
  target: RecordTarget,
  change: ExpiryChange,
): Promise<{ expiresAt: Date; version: number }> {
  const { table, key } = RECORD_TABLES[target.category];
  const [newExpiry, bind] =
    change === 'end'
      ? ['LEAST(expires_at, now())', [keyOf(target)]]
      : 'extendDays' in change
        ? // DESIGN.md: GREATEST(expires_at, now()) + duration; GREATEST ignores a NULL floor.
          [
            'GREATEST(GREATEST(expires_at, now()) + make_interval(days => $2), $3::timestamptz)',
            [keyOf(target), change.extendDays, change.atLeastUntil ?? null],
          ]
        : // A revoke takes the days back, never below now, and never moves a past expiry forward.
          [
            'LEAST(expires_at, GREATEST(expires_at - make_interval(days => $2), now()))',
            [keyOf(target), change.shortenDays],
          ];
  const [row] = await selectRows<{ expires_at: Date; version: number }>(
    transaction,
    `UPDATE ${table} SET expires_at = ${newExpiry}, version = version + 1, updated_at = now()
     WHERE ${key} = $1 RETURNING expires_at, version`,
    bind,
  );
  return { expiresAt: row!.expires_at, version: row!.version };
}

/** After a grant: the user's expiry is at least the record's new one (both categories, DESIGN.md). */
export async function raiseUserExpiry(
  transaction: Transaction,
  userId: number,
  expiresAt: Date,
): Promise<void> {
  await execute(
    transaction,
    `UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, $2), updated_at = now() WHERE id = $1`,
    [userId, expiresAt],
  );
}

/**
 * After a revoke: the expiry of each user the record counted for (the holder of a USER record; every
 * buyer of a guild) becomes the latest of what remains to them: their own record and the records of
 * guilds they hold a grant for that was not revoked.
 */
export async function recomputeHolderExpiries(transaction: Transaction, target: RecordTarget): Promise<void> {
  await execute(
    transaction,
    `UPDATE users u SET updated_at = now(), premium_expires_at = (
       SELECT max(expires_at) FROM (
         SELECT up.expires_at FROM user_premiums up WHERE up.user_id = u.id AND up.version > 0
         UNION ALL
         SELECT sp.expires_at FROM server_premiums sp
         WHERE sp.version > 0 AND sp.guild_id IN (
           SELECT g.guild_id FROM premium_grants g
           WHERE g.user_id = u.id AND g.category = 'SERVER' AND g.kind = 'grant'
             AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id))
       ) remaining)
     WHERE u.id = $1 OR u.id IN (SELECT user_id FROM premium_grants WHERE guild_id = $2)`,
    [target.userId, target.guildId],
  );
}

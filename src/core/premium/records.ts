import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { CREATE_RECORD, LOCK_RECORD, RECOMPUTE_HOLDER_EXPIRIES, SET_RECORD_EXPIRY } from './sql';
import type { Category } from './types';

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
  await execute(
    transaction,
    CREATE_RECORD[target.category],
    target.category === 'SERVER' ? [keyOf(target), target.userId] : [keyOf(target)],
  );
  const [row] = await selectRows<{ expires_at: Date; version: number }>(
    transaction,
    LOCK_RECORD[target.category],
    [keyOf(target)],
  );
  return { expiresAt: row!.version === 0 ? null : row!.expires_at, version: row!.version };
}

/** What a revoke does to a record: take (part of) a grant's time back, or end it now. */
export type ExpiryChange = { shortenMs: number } | 'end';

/**
 * Shortens or ends a locked record and bumps its version (a grant extends it in one statement, grantSql in sql.ts). A
 * revoke that ends the record announces its own REMOVE, so it marks the record's expiry announced
 * (`expiry_announced_version`): the expiry job then never looks at it, nor at the ledger.
 */
export async function setRecordExpiry(
  transaction: Transaction,
  target: RecordTarget,
  change: ExpiryChange,
): Promise<{ expiresAt: Date; version: number }> {
  const statements = SET_RECORD_EXPIRY[target.category];
  const [row] = await selectRows<{ expires_at: Date; version: number }>(
    transaction,
    change === 'end' ? statements.end : statements.shorten,
    change === 'end' ? [keyOf(target)] : [keyOf(target), change.shortenMs],
  );
  return { expiresAt: row!.expires_at, version: row!.version };
}

/** A record named by who holds (USER) or bought for (SERVER) it, before their user id is known. */
export interface RecordOwner {
  category: Category;
  providerId: string;
  guildId: string | null;
}

/**
 * After a revoke, written to the ledger: the expiry of each user the record counted for (the holder of a
 * USER record; every buyer of a guild) becomes the latest of what remains to them: their own record and
 * what they paid for on each guild, by the same rule as a grant.
 */
export async function recomputeHolderExpiries(transaction: Transaction, target: RecordTarget): Promise<void> {
  await execute(transaction, RECOMPUTE_HOLDER_EXPIRIES, [target.userId, target.guildId]);
}

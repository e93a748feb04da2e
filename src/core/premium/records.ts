import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { RecordAfter } from './ledger';
import { RECOMPUTE_HOLDER_EXPIRIES } from './holder-sql';
import { SET_RECORD_EXPIRY } from './revoke-sql';
import { CREATE_RECORD, LOCK_RECORD, RECORD_TIER } from './sql';
import type { Category, TierFeatures } from './types';

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

/** What a revoke does to a record: take (part of) a grant's time back from its tier, or end it now. */
export type ExpiryChange = { shortenMs: number; tier: string } | 'end';

/** A record after a revoke, and the tier that ran before it. */
export type RevokedRecord = RecordAfter & { wasTier: string | null };

/**
 * Shortens or ends a locked record and bumps its version (a grant extends it in one statement, grantSql in
 * sql.ts): `shortenMs` comes off its tier, and the lower tiers with days move in by as much
 * (docs/money-rules.md, "Tiers"). A revoke that ends the record announces its own REMOVE, so it marks the
 * record's expiry announced (`expiry_announced_version`): the expiry job then never looks at it, nor at the
 * ledger.
 */
export async function setRecordExpiry(
  transaction: Transaction,
  target: RecordTarget,
  change: ExpiryChange,
): Promise<RevokedRecord> {
  const statements = SET_RECORD_EXPIRY[target.category];
  const [row] = await selectRows<{
    expires_at: Date;
    version: number;
    tier: string | null;
    was_tier: string | null;
    features: TierFeatures | null;
  }>(
    transaction,
    change === 'end' ? statements.end : statements.shorten,
    change === 'end' ? [keyOf(target)] : [keyOf(target), change.shortenMs, change.tier],
  );
  return {
    expiresAt: row!.expires_at,
    version: row!.version,
    tier: row!.tier,
    features: row!.features ?? {},
    wasTier: row!.was_tier,
  };
}

/** The tier a record runs, as last announced, and its features; none when it is not premium. */
export async function announcedTier(
  transaction: Transaction,
  target: RecordTarget,
): Promise<{ tier: string | null; features: TierFeatures }> {
  const [row] = await selectRows<{ tier: string | null; features: TierFeatures | null }>(
    transaction,
    RECORD_TIER[target.category],
    [keyOf(target)],
  );
  return { tier: row?.tier ?? null, features: row?.features ?? {} };
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

import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { BatchSizing } from '../db/until-done';
import { aggregateKeyFor, appendEvents } from './outbox';
import { queueLapsedMessages } from './expiry-messages';
import { DUE_EXPIRIES, MARK_EXPIRED, TIER_CHANGES } from './expiry-sql';
import { CATEGORIES, eventTypeFor, type Category, type TierFeatures } from './types';

/** A record as the expiry jobs read it, with the user its events name. */
export interface AnnouncedRecord {
  id: number;
  guild_id: string | null;
  provider_id: string;
  slots: number;
  expires_at: Date;
  version: number;
  /** The running tier the event names (null when the record ran out), and its features. */
  tier: string | null;
  features: TierFeatures;
}

/**
 * Appends the events of what time did to records of one category (they ran out, their running tier
 * ended over a lower one, or they will soon run out), source `expiry`, in one statement.
 */
export async function announceRecords(
  transaction: Transaction,
  category: Category,
  kind: 'REMOVE' | 'UPDATE' | 'EXPIRING',
  records: AnnouncedRecord[],
  reason?: string,
): Promise<void> {
  await appendEvents(
    transaction,
    records.map((record) => ({
      aggregateKey: aggregateKeyFor(record.guild_id, record.provider_id),
      payload: {
        type: eventTypeFor(category, kind),
        providerId: record.provider_id,
        guildId: record.guild_id,
        category,
        planType: null,
        durationDays: 0,
        slots: record.slots,
        expiresAt: record.expires_at.toISOString(),
        version: record.version,
        orderId: null,
        source: 'expiry',
        tier: record.tier,
        features: record.features,
        ...(reason !== undefined && { reason }),
      },
    })),
  );
}

/**
 * How many records of each kind per category one batch of the expiry and reminder jobs takes: sized by
 * time, not count (`BatchSize`, db/until-done.ts). Each batch is a transaction of its own that holds its
 * records' locks until COMMIT and must stay under a second; a fixed 500 took up to 2.7 s on a loaded
 * 2-core machine where it took 350 ms on a quiet one (docs/performance.md). Aiming at 400 ms and halving
 * past it leaves a batch that meets a sudden slowdown room to double before it reaches the second.
 */
export const EXPIRY_BATCHES: BatchSizing = { initial: 100, min: 10, max: 1000, targetMs: 400 };

/**
 * Announces what time did to user and server premiums since their last change, appended in `transaction`:
 * - a record whose running tier ended over a lower tier with days (`tier_changes_at` passed, the record
 *   still running) gets a new version and its new running tier, announced once by `*_PREMIUM_UPDATE`;
 * - a record that passed its expiry gets one `*_PREMIUM_REMOVE` with reason `expired` per record version,
 *   and its holder the `lapsed` message unless a live subscription renews it (expiry-messages.ts).
 * Either is a change of the record like any other: it bumps the version, so that every change a bot
 * receives is newer than the last. A revoke that ended a record already announced its REMOVE and marked
 * it (records.ts), so it is not due here. Records locked by a concurrent grant or revoke are left for the
 * next batch. At most `limit` records of each kind per category per call, the longest due first, found
 * through the `*_due_by_time` (migration 039) and `*_tier_changes` (027) indexes: a call costs what is
 * due, whatever the history. Returns the number of records it took (each announced, unless a tier change found
 * the tier it announced still running).
 */
export async function announceExpiries(transaction: Transaction, limit: number): Promise<number> {
  let announced = 0;
  for (const category of CATEGORIES) {
    announced += await announceTierChanges(transaction, category, limit);
    announced += await announceCategory(transaction, category, limit);
  }
  return announced;
}

async function announceTierChanges(
  transaction: Transaction,
  category: Category,
  limit: number,
): Promise<number> {
  const changed = await selectRows<AnnouncedRecord & { changed: boolean }>(
    transaction,
    TIER_CHANGES[category],
    [limit],
  );
  const announced = changed.filter((record) => record.changed).map(({ changed: _, ...record }) => record);
  await announceRecords(transaction, category, 'UPDATE', announced);
  return changed.length;
}

async function announceCategory(
  transaction: Transaction,
  category: Category,
  limit: number,
): Promise<number> {
  const expired = await selectRows<Omit<AnnouncedRecord, 'tier' | 'features'>>(
    transaction,
    DUE_EXPIRIES[category],
    [limit],
  );
  if (expired.length === 0) return 0;
  await announceRecords(
    transaction,
    category,
    'REMOVE',
    expired.map((record) => ({ ...record, version: record.version + 1, tier: null, features: {} })),
    'expired',
  );
  const ids = expired.map((record) => record.id);
  await execute(transaction, MARK_EXPIRED[category], [ids]);
  await queueLapsedMessages(transaction, category, ids);
  return expired.length;
}

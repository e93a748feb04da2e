import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { aggregateKeyFor, appendEvent } from './outbox';
import { DUE_EXPIRIES, MARK_EXPIRED } from './sql';
import { CATEGORIES, eventTypeFor, type Category } from './types';

/** A record as the expiry jobs read it, with the user its events name. */
export interface AnnouncedRecord {
  id: number;
  guild_id: string | null;
  provider_id: string;
  slots: number;
  expires_at: Date;
  version: number;
}

/** Appends the event of something time did to a record (it ran out, or will soon), source `expiry`. */
export async function announceRecord(
  transaction: Transaction,
  category: Category,
  kind: 'REMOVE' | 'EXPIRING',
  record: AnnouncedRecord,
  reason?: string,
): Promise<void> {
  await appendEvent(transaction, aggregateKeyFor(record.guild_id, record.provider_id), {
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
    ...(reason !== undefined && { reason }),
  });
}

/**
 * Records per category in one batch of the expiry and reminder jobs. Each batch is a transaction of its
 * own and must stay under a second: `npm run bench:scale` saw 500 take up to 2.7 s on a loaded 2-core
 * machine (docs/performance.md).
 */
export const RECORDS_PER_BATCH = 250;

/**
 * Announces user and server premiums that have passed their expiry since their last change: one
 * `*_PREMIUM_REMOVE` event with reason `expired` per record version, appended in `transaction`. Running
 * out is a change of the record like any other: it bumps the version, so that every ADD and REMOVE a bot
 * receives is newer than the last. A revoke that ended a record already announced its REMOVE and marked
 * it (records.ts), so it is not due here. Records locked by a concurrent grant or revoke are left for the
 * next batch. At most `limit` records per category per call, the longest expired first, found through
 * the `*_expiry_due` indexes (migration 016): a call costs what is due, whatever the history. Returns the
 * number of events appended.
 */
export async function announceExpiries(transaction: Transaction, limit: number): Promise<number> {
  let announced = 0;
  for (const category of CATEGORIES) announced += await announceCategory(transaction, category, limit);
  return announced;
}

async function announceCategory(
  transaction: Transaction,
  category: Category,
  limit: number,
): Promise<number> {
  const expired = await selectRows<AnnouncedRecord>(transaction, DUE_EXPIRIES[category], [limit]);
  for (const record of expired) {
    await announceRecord(
      transaction,
      category,
      'REMOVE',
      { ...record, version: record.version + 1 },
      'expired',
    );
  }
  if (expired.length === 0) return 0;
  await execute(transaction, MARK_EXPIRED[category], [expired.map((record) => record.id)]);
  return expired.length;
}

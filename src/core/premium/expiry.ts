import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { aggregateKeyFor, appendEvent } from './outbox';
import { CATEGORIES, eventTypeFor, type Category } from './types';

/** Per category: the record table, the user the event names, and how a ledger row points at the record. */
export const RECORDS = {
  USER: {
    table: 'user_premiums',
    guildId: 'NULL::text',
    holder: 'r.user_id',
    ledgerRow: 'g.user_id = r.user_id',
  },
  SERVER: {
    table: 'server_premiums',
    guildId: 'r.guild_id',
    holder: 'r.buyer_user_id',
    ledgerRow: 'g.guild_id = r.guild_id',
  },
} as const;

/** A record as the expiry jobs read it, with the user its events name. */
export interface AnnouncedRecord {
  id: number;
  guild_id: string | null;
  provider_id: string;
  slots: number;
  expires_at: Date;
  version: number;
}

interface ExpiredRecord extends AnnouncedRecord {
  ended_by_revoke: boolean;
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
 * Announces every user and server premium that has passed its expiry since its last change: one
 * `*_PREMIUM_REMOVE` event with reason `expired` per record version, appended in `transaction`. Running
 * out is a change of the record like any other: it bumps the version, so that every ADD and REMOVE a bot
 * receives is newer than the last. A record whose current version comes from a revoke that ended it
 * already announced its REMOVE, so it is only marked. Records locked by a concurrent grant or revoke
 * are left for the next run. At most `limit` records per category per call; returns the number of
 * events appended.
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
  const { table, guildId, holder, ledgerRow } = RECORDS[category];
  // A revoke that ends a record sets its expiry to the revoke's own now(), which is also the ledger
  // row's created_at; a revoke that only shortens it leaves a later expiry still to be announced.
  const expired = await selectRows<ExpiredRecord>(
    transaction,
    `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version,
       EXISTS (SELECT 1 FROM premium_grants g
               WHERE g.kind = 'revoke' AND g.category = $2 AND ${ledgerRow} AND g.version = r.version
                 AND g.expires_after <= g.created_at) AS ended_by_revoke
     FROM ${table} r JOIN users u ON u.id = ${holder}
     WHERE r.version > 0 AND r.expires_at <= now() AND r.expiry_announced_version IS DISTINCT FROM r.version
     ORDER BY r.expires_at
     LIMIT $1
     FOR UPDATE OF r SKIP LOCKED`,
    [limit, category],
  );
  if (expired.length === 0) return 0;

  const toAnnounce = expired.filter((record) => !record.ended_by_revoke);
  for (const record of toAnnounce) {
    await announceRecord(
      transaction,
      category,
      'REMOVE',
      { ...record, version: record.version + 1 },
      'expired',
    );
  }
  const ids = (records: ExpiredRecord[]) => records.map((record) => record.id);
  await execute(transaction, `UPDATE ${table} SET expiry_announced_version = version WHERE id = ANY($1)`, [
    ids(expired.filter((record) => record.ended_by_revoke)),
  ]);
  await execute(
    transaction,
    `UPDATE ${table} SET version = version + 1, expiry_announced_version = version + 1, updated_at = now()
     WHERE id = ANY($1)`,
    [ids(toAnnounce)],
  );
  return toAnnounce.length;
}

import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { announceRecord, RECORDS, type AnnouncedRecord } from './expiry';
import { CATEGORIES, type Category } from './types';
import { renewedBySubscriptionSql, TARGET_KEY_SQL } from '../subscriptions/sql';

/**
 * THE selection of records to remind, in one place: active, expiring within `days`, not yet reminded
 * of this expiry, and not locked by a concurrent change or reminder run (SKIP LOCKED: a second worker
 * skips them, and finds them marked once this transaction commits).
 */
function expiringRecords(
  transaction: Transaction,
  category: Category,
  days: number,
  limit: number,
): Promise<AnnouncedRecord[]> {
  const { table, guildId, holder } = RECORDS[category];
  return selectRows<AnnouncedRecord>(
    transaction,
    `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version
     FROM ${table} r JOIN users u ON u.id = ${holder}
     WHERE r.version > 0
       AND r.expires_at > now() AND r.expires_at <= now() + make_interval(days => $2)
       AND r.expiry_reminded_for IS DISTINCT FROM r.expires_at
       AND NOT ${renewedBySubscriptionSql(TARGET_KEY_SQL[category](category === 'USER' ? 'u' : 'r'))}
     ORDER BY r.expires_at
     LIMIT $1
     FOR UPDATE OF r SKIP LOCKED`,
    [limit, days],
  );
}

/**
 * Announces `*_PREMIUM_EXPIRING` for every record that expires within `days` (EXPIRY_REMINDER_DAYS):
 * once per record and expiry, at the record's current version, marking it in the same transaction.
 * An extension or revoke that moves the expiry makes it a new one, reminded again when it comes near.
 * At most `limit` records per category per call; returns the number of events appended.
 */
export async function announceExpiringSoon(
  transaction: Transaction,
  days: number,
  limit: number,
): Promise<number> {
  let announced = 0;
  for (const category of CATEGORIES) {
    const records = await expiringRecords(transaction, category, days, limit);
    for (const record of records) await announceRecord(transaction, category, 'EXPIRING', record);
    if (records.length === 0) continue;
    await execute(
      transaction,
      `UPDATE ${RECORDS[category].table} SET expiry_reminded_for = expires_at WHERE id = ANY($1)`,
      [records.map((record) => record.id)],
    );
    announced += records.length;
  }
  return announced;
}

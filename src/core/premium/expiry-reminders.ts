import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { announceRecords, type AnnouncedRecord } from './expiry';
import { EXPIRING_RECORDS, MARK_REMINDED } from './expiry-sql';
import { CATEGORIES } from './types';

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
    const records = await selectRows<AnnouncedRecord>(transaction, EXPIRING_RECORDS[category], [limit, days]);
    if (records.length === 0) continue;
    await announceRecords(transaction, category, 'EXPIRING', records);
    await execute(transaction, MARK_REMINDED[category], [records.map((record) => record.id)]);
    announced += records.length;
  }
  return announced;
}

import type { Transaction } from 'sequelize';
import { handleDueRecords } from './due-records';
import { announceRecords, type AnnouncedRecord } from './expiry';
import { EXPIRING_RECORDS, MARK_REMINDED } from './expiry-sql';

/**
 * Announces `*_PREMIUM_EXPIRING` for every record that expires within `days` (EXPIRY_REMINDER_DAYS):
 * once per record and expiry, at the record's current version, marking it in the same transaction.
 * An extension or revoke that moves the expiry makes it a new one, reminded again when it comes near.
 * At most `limit` records per category per call; returns the number of events appended.
 */
export function announceExpiringSoon(transaction: Transaction, days: number, limit: number): Promise<number> {
  return handleDueRecords<AnnouncedRecord>(transaction, {
    due: EXPIRING_RECORDS,
    bind: [limit, days],
    act: (category, records) => announceRecords(transaction, category, 'EXPIRING', records),
    mark: MARK_REMINDED,
  });
}

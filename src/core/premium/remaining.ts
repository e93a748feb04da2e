import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import type { RecordTarget } from './records';
import { GRANT_REMAINDERS } from './revoke-sql';

/** What one grant put on a record and what is left of it now, in milliseconds. */
export interface GrantRemainder {
  grantId: number;
  userId: number;
  /** Its tier: what is left of it is counted against what is left of that tier's days. */
  tier: string;
  /** What the grant added: its days, or more when a floor (a subscription's grace) raised the record further. */
  contributionMs: number;
  remainingMs: number;
  /** Where its days end now (epoch ms): a tier's newest grants hold its end. */
  endsAtMs: number;
  /** A revoke of it took (some of) its days: a refund, a dispute, a transfer, an operator. */
  revoked: boolean;
}

/** Every grant of a record (locked by the caller) with what is left of it now; none for a record never granted. */
export async function grantRemainders(
  transaction: Transaction,
  record: Pick<RecordTarget, 'category' | 'userId' | 'guildId'>,
): Promise<GrantRemainder[]> {
  const key = record.category === 'USER' ? record.userId : record.guildId;
  const rows = await selectRows<GrantRemainder>(transaction, GRANT_REMAINDERS[record.category], [key]);
  return rows.map((row) => ({
    grantId: Number(row.grantId),
    userId: Number(row.userId),
    tier: row.tier,
    contributionMs: Number(row.contributionMs),
    remainingMs: Number(row.remainingMs),
    endsAtMs: Number(row.endsAtMs),
    revoked: row.revoked,
  }));
}

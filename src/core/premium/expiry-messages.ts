import type { Transaction } from 'sequelize';
import { MESSAGE_JOB, type BuyerMessage } from '../buyer-messages';
import { selectRows } from '../db/database';
import { enqueueMany } from '../jobs';
import { localTime } from '../local-time';
import { EXPIRING_MESSAGES, LAPSED_MESSAGES, MARK_EXPIRING_MESSAGED } from './expiry-sql';
import { handleDueRecords } from './due-records';
import type { Category } from './types';

/** A non-renewing premium's end is told this many days ahead (with the link to renew). */
export const EXPIRING_MESSAGE_DAYS = 3;

interface HolderFacts {
  id: number;
  version: number;
  expiresAt: Date;
  to: string;
  buyer: string;
  reference: string;
  tier: string;
  planType: string;
  durationDays: number;
  amountPaise: number;
}

function messageOf(kind: 'expiring' | 'lapsed', facts: HolderFacts, date?: string): BuyerMessage {
  const { to, buyer, reference, tier, planType, durationDays, amountPaise } = facts;
  return {
    kind,
    to,
    buyer,
    reference,
    plan: { tier, planType, durationDays },
    amountPaise,
    ...(date && { date }),
  };
}

/**
 * Queues the `expiring` message to the holder of each premium that ends within EXPIRING_MESSAGE_DAYS
 * and that no live subscription renews: once per record and expiry (an extension moves it: a new one),
 * `{date}` the end in `timeZone` (REPORT_TIMEZONE). At most `limit` per category; returns how many.
 */
export function queueExpiringMessages(
  transaction: Transaction,
  timeZone: string,
  limit: number,
): Promise<number> {
  return handleDueRecords<HolderFacts>(transaction, {
    due: EXPIRING_MESSAGES,
    bind: [limit, EXPIRING_MESSAGE_DAYS],
    act: (category, records) =>
      enqueueMany(
        MESSAGE_JOB,
        records.map((facts) => ({
          payload: messageOf('expiring', facts, localTime(facts.expiresAt, timeZone)),
          dedupeKey: `expiring:${category}:${facts.id}:${Math.floor(facts.expiresAt.getTime() / 1000)}`,
        })),
        transaction,
      ),
    mark: MARK_EXPIRING_MESSAGED,
  });
}

/**
 * Queues the `lapsed` message to the holders of records `ids` of `category`, which the expiry job just
 * marked run out (at their new version, so once per expiry), unless a live subscription renews them.
 */
export async function queueLapsedMessages(
  transaction: Transaction,
  category: Category,
  ids: number[],
): Promise<void> {
  const records = await selectRows<HolderFacts>(transaction, LAPSED_MESSAGES[category], [ids]);
  const jobs = records.map((facts) => ({
    payload: messageOf('lapsed', facts),
    dedupeKey: `lapsed:${category}:${facts.id}:${facts.version}`,
  }));
  await enqueueMany(MESSAGE_JOB, jobs, transaction);
}

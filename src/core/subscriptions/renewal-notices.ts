import type { Transaction } from 'sequelize';
import { messagePlan, recordMessage } from '../buyer-messages';
import { execute, selectRows } from '../db/database';
import { localTime } from '../local-time';
import { RENEWAL_NOTICED, UPCOMING_CHARGES } from './sql';

const HOUR_MS = 3_600_000;
/**
 * The RBI's e-mandate rules want the buyer told at least 24 hours before each debit; a notice is
 * queued once the charge is at most 48 hours away, so a reminders job that runs at least daily is
 * in time. A run that comes later than 24 hours before the charge queues none.
 */
export const RENEWAL_NOTICE_MIN_MS = 24 * HOUR_MS;
export const RENEWAL_NOTICE_MAX_MS = 48 * HOUR_MS;

interface UpcomingCharge {
  id: number;
  chargeAt: Date;
  reference: string;
  tier: string;
  planType: string;
  durationDays: number;
  amountPaise: number;
  to: string;
  buyer: string;
}

/**
 * Queues the buyer's `renewal_upcoming` message for up to `limit` subscriptions that will charge
 * between 24 and 48 hours from `now`: once per subscription and charge time (a charge moved, or the
 * next cycle's, is a new one), none for a subscription cancelled at cycle end or ended. `{date}` is the
 * charge's time in `timeZone` (REPORT_TIMEZONE). Returns how many were queued.
 */
export async function queueRenewalNotices(
  transaction: Transaction,
  timeZone: string,
  limit: number,
  now: Date = new Date(),
): Promise<number> {
  const charges = await selectRows<UpcomingCharge>(transaction, UPCOMING_CHARGES, [
    limit,
    new Date(now.getTime() + RENEWAL_NOTICE_MIN_MS),
    new Date(now.getTime() + RENEWAL_NOTICE_MAX_MS),
  ]);
  for (const charge of charges) {
    const message = {
      kind: 'renewal_upcoming' as const,
      to: charge.to,
      buyer: charge.buyer,
      plan: messagePlan(charge),
      amountPaise: charge.amountPaise,
      reference: charge.reference,
      date: localTime(charge.chargeAt, timeZone),
    };
    const chargeSeconds = Math.floor(charge.chargeAt.getTime() / 1000);
    await recordMessage(transaction, message, `${charge.reference}:${chargeSeconds}`);
    await execute(transaction, RENEWAL_NOTICED, [charge.id, charge.chargeAt]);
  }
  return charges.length;
}

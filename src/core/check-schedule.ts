/**
 * When the reconciler asks the processor about an unpaid order: about 5 minutes after it was created,
 * then 15 minutes, 1 hour and 6 hours after each check, then never again (a buyer who pays later is still
 * served by verify-payment, the webhook, or an operator naming the order). At most four calls per order,
 * where checking at every 5-minute run for 72 hours made 864.
 */
const CHECK_INTERVALS_MS = [5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000] as const;

/** A charge is looked for this long after it was due: the processor charges around its time, not at it. */
const CHARGE_SETTLE_MS = 10 * 60_000;

export function firstCheckAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CHECK_INTERVALS_MS[0]);
}

/** After the `checksMade`-th check (1 for the first), at `now`: the next one, or null when it stops. */
export function nextCheckAt(checksMade: number, now: Date): Date | null {
  const interval = CHECK_INTERVALS_MS[checksMade];
  return interval === undefined ? null : new Date(now.getTime() + interval);
}

/**
 * A live subscription is checked for as long as it lives: at the same growing intervals, then every 6
 * hours, and at once (CHARGE_SETTLE_MS) after its next charge is due, from which the intervals grow
 * again (`checksMade` starts over). `checksMade` counts the checks since the last start.
 */
export function nextSubscriptionCheck(
  checksMade: number,
  now: Date,
  chargeAt: Date | null,
): { nextCheckAt: Date; checksMade: number } {
  const interval = CHECK_INTERVALS_MS[Math.min(checksMade, CHECK_INTERVALS_MS.length - 1)]!;
  const byInterval = now.getTime() + interval;
  const afterCharge = chargeAt === null ? null : chargeAt.getTime() + CHARGE_SETTLE_MS;
  return afterCharge !== null && afterCharge > now.getTime() && afterCharge < byInterval
    ? { nextCheckAt: new Date(afterCharge), checksMade: 0 }
    : { nextCheckAt: new Date(byInterval), checksMade };
}

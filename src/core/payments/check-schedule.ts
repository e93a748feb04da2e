/**
 * When the reconciler asks the processor about an unpaid order: about 5 minutes after it was created,
 * then 15 minutes, 1 hour and 6 hours after each check, then never again (a buyer who pays later is still
 * served by verify-payment, the webhook, or an operator naming the order). At most four calls per order,
 * where checking at every 5-minute run for 72 hours made 864.
 */
const CHECK_INTERVALS_MS = [5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000] as const;

export function firstCheckAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CHECK_INTERVALS_MS[0]);
}

/** After the `checksMade`-th check (1 for the first), at `now`: the next one, or null when it stops. */
export function nextCheckAt(checksMade: number, now: Date): Date | null {
  const interval = CHECK_INTERVALS_MS[checksMade];
  return interval === undefined ? null : new Date(now.getTime() + interval);
}

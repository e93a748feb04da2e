import { indiaDate } from './numbering';

/** The days an invoice's service covers, India dates (`2026-04-01`), both included. */
export interface ServicePeriod {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** A one-off purchase's: its days from the payment, `01 Apr 2026 – 30 Apr 2026` for 30 days. */
export function servicePeriod(from: Date, days: number): ServicePeriod {
  return { from: indiaDate(from), to: indiaDate(new Date(from.getTime() + (days - 1) * DAY_MS)) };
}

/** A subscription charge's: the cycle Razorpay says it pays for (its end excluded), else its days from now. */
export function chargePeriod(
  charge: { cycleStart: Date | null; cycleEnd: Date | null },
  days: number,
): ServicePeriod {
  if (charge.cycleStart && charge.cycleEnd && charge.cycleEnd > charge.cycleStart) {
    return { from: indiaDate(charge.cycleStart), to: indiaDate(new Date(charge.cycleEnd.getTime() - 1)) };
  }
  return servicePeriod(charge.cycleStart ?? new Date(), days);
}

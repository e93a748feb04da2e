import { AppError } from '../errors';
import type { RevenueGrouping } from './types';

const DAY_MS = 86_400_000;

/**
 * The first day a report covers, and the most years one covers: every day of a range is a row PostgreSQL
 * builds and the report carries, and `--from 1000-01-01` took 16 s and 1.5 GB (issue 31).
 */
export const FIRST_REPORT_DAY = '2000-01-01';
export const MAX_REPORT_YEARS = 10;

/** Today's date, `YYYY-MM-DD`, in `timeZone`. */
export function today(timeZone: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
}

/** A `YYYY-MM-DD` that names a real day, or a validation error naming the option. */
export function calendarDay(value: string, name: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw AppError.validation('INVALID_DATE', `${name} must be a day like 2026-01-31, not "${value}"`);
  }
  return value;
}

/**
 * The default first day: 90 days ending `to` (by day), or the 12 months ending with `to`'s (by month),
 * from FIRST_REPORT_DAY at the earliest.
 */
export function defaultFrom(to: string, by: RevenueGrouping): string {
  const end = new Date(`${to}T00:00:00Z`);
  const from =
    by === 'day'
      ? new Date(end.getTime() - 89 * DAY_MS)
      : new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1));
  const day = from.toISOString().slice(0, 10);
  return day < FIRST_REPORT_DAY ? FIRST_REPORT_DAY : day;
}

/** Refuses a range that ends before it starts, starts before FIRST_REPORT_DAY or spans over MAX_REPORT_YEARS. */
export function checkRange(from: string, to: string): void {
  for (const [name, day] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (day < FIRST_REPORT_DAY) {
      throw AppError.validation(
        'INVALID_RANGE',
        `${name} (${day}) is before ${FIRST_REPORT_DAY}, the first day a report covers`,
      );
    }
  }
  if (from > to) throw AppError.validation('INVALID_RANGE', `from (${from}) is after to (${to})`);
  const start = new Date(`${from}T00:00:00Z`);
  const pastLimit = new Date(
    Date.UTC(start.getUTCFullYear() + MAX_REPORT_YEARS, start.getUTCMonth(), start.getUTCDate()),
  );
  if (to >= pastLimit.toISOString().slice(0, 10)) {
    throw AppError.validation(
      'INVALID_RANGE',
      `from ${from} to ${to} is more than ${MAX_REPORT_YEARS} years; a report covers ${MAX_REPORT_YEARS} at most`,
    );
  }
}

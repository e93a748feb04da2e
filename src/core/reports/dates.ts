import { AppError } from '../errors';
import type { RevenueGrouping } from './types';

const DAY_MS = 86_400_000;

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

/** The default first day: 90 days ending `to` (by day), or the 12 months ending with `to`'s (by month). */
export function defaultFrom(to: string, by: RevenueGrouping): string {
  const end = new Date(`${to}T00:00:00Z`);
  if (by === 'day') return new Date(end.getTime() - 89 * DAY_MS).toISOString().slice(0, 10);
  return new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1)).toISOString().slice(0, 10);
}

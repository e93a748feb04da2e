/**
 * Times as people read and type them, in REPORT_TIMEZONE (docs/configuration.md): the seller's own
 * clock. JSON, the database and the API's instants stay exact UTC times.
 */

const SHOWN = new Map<string, Intl.DateTimeFormat>();
const WALL = new Map<string, Intl.DateTimeFormat>();

function cached(
  formats: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  make: () => Intl.DateTimeFormat,
): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) formats.set(timeZone, (format = make()));
  return format;
}

function partsOf(format: Intl.DateTimeFormat, instant: Date): Record<string, string> {
  return Object.fromEntries(format.formatToParts(instant).map(({ type, value }) => [type, value]));
}

/**
 * `2026-12-31 23:59 IST`: an instant as a person reads it, in `timeZone` (the zone's short name as
 * India writes it: `IST`, `UTC`, `GMT+1`). The console's `time` (console-api.js) writes the same.
 */
export function localTime(instant: Date, timeZone: string): string {
  const format = cached(
    SHOWN,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-IN', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
  );
  const { year, month, day, hour, minute, timeZoneName } = partsOf(format, instant);
  return `${year}-${month}-${day} ${hour}:${minute} ${timeZoneName}`;
}

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in ms. */
function offsetMs(instant: number, timeZone: string): number {
  const format = cached(
    WALL,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        hourCycle: 'h23',
      }),
  );
  const wall = partsOf(format, new Date(instant));
  const asUtc = Date.UTC(
    +wall.year!,
    +wall.month! - 1,
    +wall.day!,
    +wall.hour!,
    +wall.minute!,
    +wall.second!,
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant `timeZone`'s clock reads `wall` (a UTC-based count of the wall time's ms). */
function wallInstant(wall: number, timeZone: string): Date {
  const guess = wall - offsetMs(wall, timeZone);
  return new Date(wall - offsetMs(guess, timeZone));
}

const TYPED =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * A time a seller typed (an offer's start or end), as the instant it means: `2026-12-31` is that day in
 * `timeZone`, its first moment for a `start`, its last for an `end` (the next day's start, since an
 * offer's end is the first moment it no longer applies); `2026-12-31T18:30` is that clock time in
 * `timeZone`; a time with `Z` or an offset is that instant. Null when the text is none of these.
 */
export function typedInstant(text: string, timeZone: string, edge: 'start' | 'end'): Date | null {
  const match = TYPED.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, zone] = match;
  const wall = Date.UTC(+year!, +month! - 1, +day!, +(hour ?? 0), +(minute ?? 0), +(second ?? 0));
  const date = new Date(wall);
  const real =
    date.getUTCFullYear() === +year! &&
    date.getUTCMonth() === +month! - 1 &&
    date.getUTCDate() === +day! &&
    date.getUTCHours() === +(hour ?? 0) &&
    date.getUTCMinutes() === +(minute ?? 0);
  if (!real) return null;
  if (zone) {
    const instant = new Date(text.trim().replace(' ', 'T'));
    return Number.isNaN(instant.getTime()) ? null : instant;
  }
  if (hour === undefined && edge === 'end') return wallInstant(wall + 86_400_000, timeZone);
  return wallInstant(wall, timeZone);
}

import { localTime } from '../core/local-time';
import { rupeesOfPaise } from '../core/money';

/** Plain-text rendering for people: times in REPORT_TIMEZONE with a relative hint, aligned columns. */

const UNPRINTABLE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;

/**
 * Text as a terminal should show it: every control character but the newline, and every character that
 * reorders or breaks lines, written out as `\x1b` or `\u202e`. Names come from Discord, and an escape
 * sequence in one would otherwise retitle the operator's terminal, clear it or hide what follows.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    if (char === '\n') return char;
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** `in 29 days`, `3 hours ago`, `now`. */
function relativeTime(date: Date, now = new Date()): string {
  const diff = date.getTime() - now.getTime();
  const [unit, ms] = UNITS.find(([, size]) => Math.abs(diff) >= size) ?? ['second', 1_000];
  return RELATIVE.format(Math.trunc(diff / ms), unit);
}

let shownTimeZone = 'UTC';

/**
 * The zone human output writes times in: the session sets REPORT_TIMEZONE once it has the configuration
 * (a command that never opens it, like `db migrate`, writes UTC, and says so). `--json` stays UTC.
 */
export function showTimesIn(timeZone: string): void {
  shownTimeZone = timeZone;
}

/** `2025-06-01 15:30 IST`: in REPORT_TIMEZONE, to the minute. */
export function shownTime(date: Date): string {
  return localTime(date, shownTimeZone);
}

/** `2025-06-01 15:30 IST (in 29 days)`, or `-` for no time at all. */
export function time(date: Date | null): string {
  return date ? `${shownTime(date)} (${relativeTime(date)})` : '-';
}

export function money(paise: number, currency: string): string {
  return `${(paise / 100).toFixed(2)} ${currency}`;
}

/** An amount in INR as the console shows it: `₹1,999.00`. */
export function rupees(inr: number): string {
  return rupeesOfPaise(Math.round(inr * 100));
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** Columns padded to their widest cell, separated by two spaces; cells measured as they will show. */
export function table(headers: string[], rows: string[][]): string {
  const shown = rows.map((row) => row.map(printable));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...shown.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...shown.map(line)].join('\n');
}

/** `label   value` lines, the values aligned. */
export function fields(pairs: [string, string][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

/** A titled block: a table, or a sentence when there is nothing to tabulate. */
export function section(title: string, body: string): string {
  return `\n${title}\n${body}`;
}

/** Each line cut to `columns` characters, ending in `…` where it was cut: wide tables stay readable. */
export function fitWidth(text: string, columns: number): string {
  return text
    .split('\n')
    .map((line) => (line.length > columns ? `${line.slice(0, columns - 1)}…` : line))
    .join('\n');
}

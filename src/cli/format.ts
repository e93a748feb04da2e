/** Plain-text rendering for people: UTC ISO times with a relative hint, aligned columns. */

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

/** `2025-06-01T10:00:00Z`: UTC, to the second. */
export function isoTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `2025-06-01T10:00:00Z (in 29 days)`, or `-` for no time at all. */
export function time(date: Date | null): string {
  return date ? `${isoTime(date)} (${relativeTime(date)})` : '-';
}

export function money(paise: number, currency: string): string {
  return `${(paise / 100).toFixed(2)} ${currency}`;
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** Columns padded to their widest cell, separated by two spaces. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
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

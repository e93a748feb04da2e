/** A CSV cell: text, a number (written as it is), or nothing (an empty cell). */
export type CsvCell = string | number | null;

/**
 * Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, or a tab or carriage return before one):
 * a buyer's Discord name is theirs to choose, and `=HYPERLINK(…)` must open as the text it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A negative decimal written as text (`-84.75`, an amount with its two decimals): a number, not a formula. */
const NEGATIVE_DECIMAL = /^-\d+(\.\d+)?$/;

/**
 * One cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break (quotes
 * doubled), text that would start a formula prefixed with `'`. Numbers are the report's own, never guarded,
 * so a negative amount stays a number.
 */
export function csvCell(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = FORMULA_START.test(cell) && !NEGATIVE_DECIMAL.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, ending CRLF. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The header line, then one line per row, as the rows come: a long export is never held whole. */
export async function* csvLines(
  columns: readonly string[],
  rows: AsyncIterable<readonly CsvCell[]>,
): AsyncGenerator<string> {
  yield csvLine(columns);
  for await (const row of rows) yield csvLine(row);
}

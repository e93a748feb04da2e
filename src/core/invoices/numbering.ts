/**
 * How a tax document is numbered (docs/invoices.md): `<prefix>/<FY>/<serial>`, FY the Indian financial
 * year (1 April to 31 March, India time) written with the last two digits of both its years (`2627` from
 * 1 April 2026), the serial six digits from 000001 in each year and series: `INV/2627/000001`.
 */

/** India keeps one offset all year (no daylight saving): UTC+05:30. */
export const INDIA_OFFSET_MS = 330 * 60_000;

export const SERIAL_DIGITS = 6;

/** The financial year `instant` falls in, in India time: `2627` from 1 April 2026 00:00 IST on. */
export function financialYearOf(instant: Date): string {
  const india = new Date(instant.getTime() + INDIA_OFFSET_MS);
  const year = india.getUTCMonth() >= 3 ? india.getUTCFullYear() : india.getUTCFullYear() - 1;
  const twoDigits = (value: number) => String(value % 100).padStart(2, '0');
  return `${twoDigits(year)}${twoDigits(year + 1)}`;
}

/** What every number of a series and year starts with; the database appends the serial. */
export function numberHead(prefix: string, financialYear: string): string {
  return `${prefix}/${financialYear}/`;
}

export function documentNumber(prefix: string, financialYear: string, serial: number): string {
  return `${numberHead(prefix, financialYear)}${String(serial).padStart(SERIAL_DIGITS, '0')}`;
}

/** The first instant of month `YYYY-MM` in India time, and the first of the month after. */
export function indiaMonth(month: string): { from: Date; to: Date } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const start = (y: number, m: number) => new Date(Date.UTC(y, m - 1, 1) - INDIA_OFFSET_MS);
  return {
    from: start(year, monthNumber),
    to: monthNumber === 12 ? start(year + 1, 1) : start(year, monthNumber + 1),
  };
}

/** The first instant of day `YYYY-MM-DD` in India time, or of the day `plusDays` after it. */
export function indiaDayStart(day: string, plusDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + plusDays) - INDIA_OFFSET_MS);
}

/** The date of `instant` in India time, `2026-04-01`. */
export function indiaDate(instant: Date): string {
  return new Date(instant.getTime() + INDIA_OFFSET_MS).toISOString().slice(0, 10);
}

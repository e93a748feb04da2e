/** What the invoices commands print: dates in India time, amounts in INR with two decimals. */

export const rupees = (paise: number) => (paise / 100).toFixed(2);

/** `2026-04-01 10:30`, India time: the date a document bears. */
export function invoiceDate(instant: Date): string {
  return new Date(instant.getTime() + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

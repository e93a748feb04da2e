/** One report query, with `$n` bind parameters. */
export { selectRows as select } from '../db/database';

/** Paise (a count or sum, which PostgreSQL returns as text) as INR with two decimals. */
export function inr(paise: number | string | null): number {
  return Math.round(Number(paise ?? 0)) / 100;
}

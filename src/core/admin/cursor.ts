import { AppError } from '../errors';

/**
 * Where an operator list stopped: the sort key of its last row, handed out as an opaque text
 * (`nextCursor`) and given back (`--cursor`) for the rows after it. `kind` names the list, so a cursor of
 * one list is refused by another.
 */
export type CursorKey = (string | number)[];

export function encodeCursor(kind: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify([kind, ...key])).toString('base64url');
}

export function decodeCursor(kind: string, cursor: string, length: number): CursorKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed[0] !== kind ||
    parsed.length !== length + 1 ||
    !parsed.every((part) => typeof part === 'string' || typeof part === 'number')
  ) {
    throw AppError.validation('BAD_CURSOR', `not a cursor of this list: ${cursor}`);
  }
  return parsed.slice(1) as CursorKey;
}

/**
 * The sort key a keyset list reads beside each row: its time as PostgreSQL's own text (`created_at::text`,
 * to the microsecond, which a JavaScript Date would round to the millisecond and so skip rows), and its id.
 */
export interface PageKey {
  id: number;
  keyTime: string;
}

/** A page of rows, and the cursor of the next page (null when this one is the last). */
export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/** Cuts `rows` (read with one row more than `limit`) to a page, the cursor naming its last row. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => string): Page<T> {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: page, nextCursor: more ? cursorOf(page.at(-1)!) : null };
}

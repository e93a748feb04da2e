import type { DatabaseError } from 'pg';

/** A hot statement sent with pg directly; `name` prepares it once per connection. */
export interface PlainQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Prepared statements are on until a server says a connection does not know one it prepared (26000)
 * or already has one of that name (42P05): what a pooler without prepared-statement support
 * (PgBouncer before 1.21 in transaction mode) answers when consecutive statements land on different
 * server connections. From then on this process sends its plain queries unnamed.
 */
let preparing = true;
const LOST_PREPARED_STATEMENT = new Set(['26000', '42P05']);

export function preparedStatementsWork(): boolean {
  return preparing;
}

/** True (and prepared statements off for this process) when `error` says the server lost one. */
export function givesUpPreparedStatements(error: unknown): boolean {
  if (!LOST_PREPARED_STATEMENT.has((error as DatabaseError | undefined)?.code ?? '')) return false;
  preparing = false;
  return true;
}

/** The query as sent: prepared when `named`, otherwise parsed and planned by the server each time. */
export function asSent(query: PlainQuery, named: boolean): PlainQuery | { text: string; values: unknown[] } {
  return named ? query : { text: query.text, values: query.values };
}

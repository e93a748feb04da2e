import type { PoolClient } from 'pg';

/** A pending outbox row, locked by the claiming transaction. */
export interface ClaimedRow {
  id: string;
  eventId: string;
  type: string;
  /** A JSON object carrying the row's own eventId and type (checked when written: 010-outbox-well-formed). */
  payload: string;
  attempts: number;
  createdAtMs: number;
}

export interface RowFailure {
  id: string;
  /** The row's attempts including this one. */
  attempts: number;
  retryInMs: number;
  dead: boolean;
  error: string;
}

/**
 * The relay's settings, for its own transaction only (SET LOCAL): nothing outlives the transaction, so
 * the relay works through PgBouncer in transaction mode, which carries no session state or startup
 * options from one transaction to the next.
 * - synchronous_commit: losing the last deletions in a Postgres crash only relays those rows again, which
 *   consumers drop by event id; waiting for the WAL flush at every commit costs more than that.
 * - enable_sort, enable_bitmapscan: a backlog grows fastest while the outbox's statistics still say it is
 *   nearly empty (after a Redis outage), when the planner would sort every pending row at each claim; the
 *   claim must walk the pending index in order, however large the backlog.
 * - idle_in_transaction_session_timeout: Postgres ends a transaction a hung relay left open, freeing its rows.
 */
function beginClaim(idleInTransactionTimeoutMs: number): string {
  return `BEGIN; SET LOCAL synchronous_commit = off; SET LOCAL enable_sort = off;
    SET LOCAL enable_bitmapscan = off;
    SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(idleInTransactionTimeoutMs)}`;
}

const CLAIM_PENDING = `
  SELECT id::text AS id, event_id::text AS "eventId", type, payload::text AS payload, attempts,
         -- date_part: a float8 at once; extract() computes in numeric since PostgreSQL 14, dearer per row.
         date_part('epoch', created_at) * 1000 AS "createdAtMs"
  FROM outbox
  WHERE dead_at IS NULL AND available_at <= now()
  ORDER BY outbox.id -- the column: "id" alone would sort by the text alias
  LIMIT $1
  FOR UPDATE SKIP LOCKED`;

const DELETE_ROWS = 'DELETE FROM outbox WHERE id = ANY($1::bigint[])';

const RECORD_FAILURES = `
  UPDATE outbox
  SET attempts = f.attempts, last_error = f.error, dead_at = CASE WHEN f.dead THEN now() END,
      available_at = now() + f.retry_in_ms * interval '1 millisecond'
  FROM unnest($1::bigint[], $2::int[], $3::float8[], $4::bool[], $5::text[])
       AS f(id, attempts, retry_in_ms, dead, error)
  WHERE outbox.id = f.id`;

/**
 * Begins the claiming transaction and locks up to `limit` pending rows that are due, oldest first,
 * skipping rows other relays hold. The locks last until `settleClaimed` commits, and end with the
 * connection if the process dies. On a pipelining client, BEGIN and the claim travel together. The
 * statements are unnamed: a named one would be prepared on one server connection of a PgBouncer and
 * looked for on another.
 */
export async function claimPending(
  client: PoolClient,
  limit: number,
  idleInTransactionTimeoutMs: number,
): Promise<ClaimedRow[]> {
  const [, { rows }] = await Promise.all([
    client.query(beginClaim(idleInTransactionTimeoutMs)),
    client.query<ClaimedRow>({ text: CLAIM_PENDING, values: [limit] }),
  ]);
  return rows;
}

/**
 * Deletes the relayed rows, counts an attempt against each failed row and schedules its retry or sets it
 * aside as dead (kept, not deleted), and commits; on a pipelining client, in one round trip.
 */
export async function settleClaimed(
  client: PoolClient,
  relayedIds: string[],
  failures: RowFailure[],
): Promise<void> {
  const statements = [];
  if (relayedIds.length > 0) {
    statements.push(client.query({ text: DELETE_ROWS, values: [relayedIds] }));
  }
  if (failures.length > 0) {
    statements.push(
      client.query({
        text: RECORD_FAILURES,
        values: [
          failures.map((f) => f.id),
          failures.map((f) => f.attempts),
          failures.map((f) => f.retryInMs),
          failures.map((f) => f.dead),
          failures.map((f) => f.error),
        ],
      }),
    );
  }
  // After a failed statement COMMIT only rolls back, so every statement's own result is awaited.
  await Promise.all([...statements, client.query('COMMIT')]);
}

/** Why a row cannot become a stream entry, or null when it can. */
export function rowProblem(row: ClaimedRow, maxPayloadBytes: number): string | null {
  if (Buffer.byteLength(row.payload) > maxPayloadBytes)
    return `payload is larger than ${maxPayloadBytes} bytes`;
  return null;
}

/** The relay's raw SQL: it talks to pg directly, not through Sequelize. */

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
export function beginClaim(idleInTransactionTimeoutMs: number): string {
  return `BEGIN; SET LOCAL synchronous_commit = off; SET LOCAL enable_sort = off;
    SET LOCAL enable_bitmapscan = off;
    SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(idleInTransactionTimeoutMs)}`;
}

/**
 * Up to $1 due pending rows after id $2 (0: from the oldest), oldest first, locked, skipping rows other
 * relays hold.
 */
export const CLAIM_PENDING = `
  SELECT id::text AS id, event_id::text AS "eventId", type, payload::text AS payload, attempts,
         -- date_part: a float8 at once; extract() computes in numeric since PostgreSQL 14, dearer per row.
         date_part('epoch', created_at) * 1000 AS "createdAtMs"
  FROM outbox
  WHERE dead_at IS NULL AND available_at <= now() AND outbox.id > $2
  ORDER BY outbox.id -- the column: "id" alone would sort by the text alias
  LIMIT $1
  FOR UPDATE SKIP LOCKED`;

export const DELETE_ROWS = 'DELETE FROM outbox WHERE id = ANY($1::bigint[])';

/** Per failed row: its attempts, when to retry it (ms from now), whether it is dead, and why. */
export const RECORD_FAILURES = `
  UPDATE outbox
  SET attempts = f.attempts, last_error = f.error, dead_at = CASE WHEN f.dead THEN now() END,
      available_at = now() + f.retry_in_ms * interval '1 millisecond'
  FROM unnest($1::bigint[], $2::int[], $3::float8[], $4::bool[], $5::text[])
       AS f(id, attempts, retry_in_ms, dead, error)
  WHERE outbox.id = f.id`;

/** The channel the `outbox_notify` trigger (migration 001) notifies when an insert commits. */
export const LISTEN_OUTBOX = 'LISTEN premium_outbox';

/** Pending and dead rows. */
export const OUTBOX_ROWS = `
  SELECT count(*) FILTER (WHERE dead_at IS NULL)::float8 AS pending,
         count(*) FILTER (WHERE dead_at IS NOT NULL)::float8 AS dead
  FROM outbox`;

export const OLDEST_PENDING_AGE = `
  SELECT extract(epoch FROM now() - created_at)::float8 AS age
  FROM outbox WHERE dead_at IS NULL ORDER BY id LIMIT 1`;

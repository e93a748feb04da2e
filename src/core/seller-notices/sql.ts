/** The seller's notices' raw SQL (migration 034). Statements take `$n` bind parameters. */

export const INSERT_NOTICE = 'INSERT INTO seller_notices (kind, payload) VALUES ($1::text, $2::jsonb)';

/**
 * Notice $2 ($3 its payload) of order $1's sale, only when this very transaction marked the order paid
 * (its `paid_at` is the transaction's `now()`): the paid-and-grant transaction sends it behind its grant
 * without waiting for the grant's answer, and a replayed payment must not tell the seller twice.
 */
export const INSERT_SALE_OF_ORDER = `
  INSERT INTO seller_notices (kind, payload)
  SELECT $2::text, $3::jsonb WHERE EXISTS (SELECT 1 FROM orders WHERE id = $1::bigint AND paid_at = now())`;

const NOTICE_COLUMNS = `id, kind, payload, created_at AS "createdAt", due_at AS "dueAt", attempts,
  last_error AS "lastError", sent_at AS "sentAt", dead_at AS "deadAt"`;

/**
 * Claims the oldest due notice for $1 ms (a crashed sender's claim runs out and it is sent again: at
 * least once), unless a notice was claimed in the last $2 ms: the pace is kept across worker replicas.
 */
export const CLAIM_DUE = `
  UPDATE seller_notices n SET due_at = now() + $1 * interval '1 millisecond', attempted_at = now()
  FROM (SELECT id FROM seller_notices
        WHERE sent_at IS NULL AND dead_at IS NULL AND due_at <= now()
          AND NOT EXISTS (SELECT 1 FROM seller_notices
                          WHERE attempted_at > now() - $2 * interval '1 millisecond')
        ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) due
  WHERE n.id = due.id
  RETURNING n.id, n.kind, n.payload, n.attempts`;

export const MARK_SENT = 'UPDATE seller_notices SET sent_at = now(), last_error = NULL WHERE id = $1';

/** Notice $1 is tried again in $2 ms; $3 says why; with $4 the try counts towards giving up. */
export const MARK_RETRY = `UPDATE seller_notices
  SET due_at = now() + $2 * interval '1 millisecond', last_error = $3,
      attempts = attempts + CASE WHEN $4::boolean THEN 1 ELSE 0 END
  WHERE id = $1 RETURNING attempts`;

/** Notice $1 is given up ($2 why): kept, dead, for an operator (`premium notices list --failed`). */
export const MARK_DEAD = `UPDATE seller_notices SET dead_at = now(), last_error = $2, attempts = attempts + 1
  WHERE id = $1`;

/** The latest $2 notices, or with $1 only the dead ones and those that failed at least once. */
export const LIST_NOTICES = `SELECT ${NOTICE_COLUMNS} FROM seller_notices
  WHERE NOT $1::boolean OR (sent_at IS NULL AND last_error IS NOT NULL)
  ORDER BY id DESC LIMIT $2`;

/** Notice $1, not sent, due again now with its tries and last error forgotten. */
export const RETRY_NOTICE = `UPDATE seller_notices
  SET dead_at = NULL, due_at = now(), attempts = 0, last_error = NULL
  WHERE id = $1 AND sent_at IS NULL RETURNING ${NOTICE_COLUMNS}`;

/** Notices waiting to be sent, and those given up. */
export const COUNT_NOTICES = `SELECT
  count(*) FILTER (WHERE sent_at IS NULL AND dead_at IS NULL)::int AS waiting,
  count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead
  FROM seller_notices WHERE sent_at IS NULL`;

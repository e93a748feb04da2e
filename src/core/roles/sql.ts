/** The roles' raw SQL: the queue `role_syncs` and the drift syncs' runs (migration 033). */

/**
 * Up to $1 due rows, oldest due first, leased for $2 ms (their `due_at` moved past the lease, so that
 * no other worker takes them meanwhile and a crashed worker's rows come back by themselves), with the
 * user's Discord id and the `queued_at` the sync answers for (as text: a Date would lose its microseconds).
 */
export const CLAIM_DUE = `
  UPDATE role_syncs r SET due_at = now() + $2 * interval '1 millisecond'
  FROM (SELECT user_id FROM role_syncs WHERE skipped_at IS NULL AND due_at <= now()
        ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED) due, users u
  WHERE r.user_id = due.user_id AND u.id = r.user_id
  RETURNING r.user_id AS "userId", u.provider_id AS "providerId", r.queued_at::text AS "queuedAt", r.attempts`;

/**
 * The user $1's row, synced as queued at $2: deleted; when a change was queued meanwhile (`queued_at`
 * moved), due again at once instead.
 */
export const SYNCED = `
  WITH done AS (DELETE FROM role_syncs WHERE user_id = $1 AND queued_at = $2::timestamptz RETURNING user_id)
  UPDATE role_syncs SET due_at = now() WHERE user_id = $1 AND NOT EXISTS (SELECT FROM done)`;

/** The user $1 is no member of the guild: set aside with reason $3, unless a change came after $2. */
export const NOT_A_MEMBER = `
  UPDATE role_syncs SET last_error = $3, due_at = now(),
    skipped_at = CASE WHEN queued_at = $2::timestamptz THEN now() END
  WHERE user_id = $1`;

/** The sync of user $1 failed with $3: tried again in $4 ms, or at once when a change came after $2. */
export const FAILED = `
  UPDATE role_syncs SET attempts = attempts + 1, last_error = $3,
    due_at = CASE WHEN queued_at = $2::timestamptz THEN now() + $4 * interval '1 millisecond' ELSE now() END
  WHERE user_id = $1`;

/** The leased rows of users $1 a stopping worker did not get to: due again at once. */
export const RELEASE = 'UPDATE role_syncs SET due_at = now() WHERE user_id = ANY($1::bigint[])';

/** A user's queued row, if any, and their id, by Discord id $1. */
export const QUEUED_USER = `
  SELECT u.id AS "userId", u.provider_id AS "providerId", r.queued_at::text AS "queuedAt"
  FROM users u LEFT JOIN role_syncs r ON r.user_id = u.id WHERE u.provider_id = $1`;

/** The members $1 (Discord ids) set aside as no members, whom the drift sync has now synced. */
export const FORGET_SKIPPED = `
  DELETE FROM role_syncs r USING users u
  WHERE u.id = r.user_id AND r.skipped_at IS NOT NULL AND u.provider_id = ANY($1::text[])`;

export const RECORD_RUN = `
  INSERT INTO role_sync_runs (started_at, outcome, result) VALUES ($1, $2, $3)`;

export const LAST_RUN = `
  SELECT started_at AS "startedAt", finished_at AS "finishedAt", outcome, result
  FROM role_sync_runs ORDER BY id DESC LIMIT 1`;

/** The queue: due now, leased, set aside, failing; and up to $1 failing and set-aside rows, worst first. */
export const QUEUE_COUNTS = `
  SELECT count(*) FILTER (WHERE skipped_at IS NULL AND due_at <= now())::int AS due,
         count(*) FILTER (WHERE skipped_at IS NULL AND due_at > now() AND attempts = 0)::int AS "inProgress",
         count(*) FILTER (WHERE skipped_at IS NULL AND attempts > 0)::int AS failing,
         count(*) FILTER (WHERE skipped_at IS NOT NULL)::int AS "notMembers"
  FROM role_syncs`;

export const QUEUE_PROBLEMS = `
  SELECT u.provider_id AS "providerId", r.attempts, r.last_error AS "lastError", r.due_at AS "dueAt",
         r.skipped_at AS "notMemberSince"
  FROM role_syncs r JOIN users u ON u.id = r.user_id
  WHERE r.attempts > 0 OR r.skipped_at IS NOT NULL
  ORDER BY r.skipped_at IS NOT NULL, r.attempts DESC, r.user_id
  LIMIT $1`;

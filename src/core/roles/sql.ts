/**
 * The roles' raw SQL: the drift syncs' runs (migration 033), and the reads of the role syncs waiting in
 * the work queue (docs/jobs.md) for `premium roles status`.
 */

/** The jobs' kind of a user's role sync: its dedupe key and payload's `providerId` the user's Discord id. */
export const ROLE_SYNC_JOB = 'role_sync';

export const RECORD_RUN = `
  INSERT INTO role_sync_runs (started_at, outcome, result) VALUES ($1, $2, $3)`;

export const LAST_RUN = `
  SELECT started_at AS "startedAt", finished_at AS "finishedAt", outcome, result
  FROM role_sync_runs ORDER BY id DESC LIMIT 1`;

/** The role syncs not done, a user set aside (not a member, $1 the reason) told from one given up. */
const ROLE_SYNCS = `
  SELECT dedupe_key, state, attempts, last_error, run_at, finished_at,
         state = 'dead' AND last_error = $1 AS not_member
  FROM jobs WHERE kind = '${ROLE_SYNC_JOB}' AND state <> 'done'`;

/** The queue: due now, in progress, failing (the given up included), set aside as no members. */
export const QUEUE_COUNTS = `
  SELECT count(*) FILTER (WHERE state = 'queued' AND run_at <= now())::int AS due,
         count(*) FILTER (WHERE state = 'running')::int AS "inProgress",
         count(*) FILTER (WHERE attempts > 0 AND NOT not_member)::int AS failing,
         count(*) FILTER (WHERE not_member)::int AS "notMembers"
  FROM (${ROLE_SYNCS}) r`;

/** Up to $2 failing and set-aside users, worst first. */
export const QUEUE_PROBLEMS = `
  SELECT dedupe_key AS "providerId", attempts, last_error AS "lastError", run_at AS "dueAt",
         CASE WHEN not_member THEN finished_at END AS "notMemberSince"
  FROM (${ROLE_SYNCS}) r
  WHERE attempts > 0 OR not_member
  ORDER BY not_member, attempts DESC, dedupe_key
  LIMIT $2`;

/** The work queue's raw SQL: the table `jobs` (migration 048). Statements take `$n` bind parameters. */

const ON_DEDUPE_KEY = `ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running')`;
const AGAIN = `DO UPDATE SET payload = EXCLUDED.payload, version = jobs.version + 1,
    run_at = CASE WHEN jobs.state = 'queued' AND jobs.attempts = 0
                  THEN LEAST(jobs.run_at, EXCLUDED.run_at) ELSE jobs.run_at END`;

/**
 * Job $1 ($2 its payload), due at $3 (null: now), of dedupe key $4. A job of that kind and key that
 * still waits or runs is not doubled: it takes the new payload and its version grows (a run in hand then
 * leaves it due again when it ends); a waiting one that was never tried is due at the sooner of the two.
 */
export const ENQUEUE = `
  INSERT INTO jobs (kind, payload, run_at, dedupe_key)
  VALUES ($1::text, $2::jsonb, COALESCE($3::timestamptz, now()), $4::text)
  ${ON_DEDUPE_KEY} ${AGAIN}`;

/**
 * A job of kind $1 for each of the distinct keys $2, due now, its dedupe key the key and its payload
 * `{ <$3>: key }`; enqueued again as ENQUEUE is.
 */
export const ENQUEUE_EACH = `
  INSERT INTO jobs (kind, payload, dedupe_key)
  SELECT $1::text, jsonb_build_object($3::text, key), key FROM unnest($2::text[]) AS keys (key)
  ${ON_DEDUPE_KEY} ${AGAIN}`;

/** Jobs of kind $1, one per payload of $2 with the dedupe key at its index of $3, due now; enqueued again as ENQUEUE is. */
export const ENQUEUE_MANY = `
  INSERT INTO jobs (kind, payload, dedupe_key)
  SELECT $1::text, payload, key FROM unnest($2::jsonb[], $3::text[]) AS each (payload, key)
  ${ON_DEDUPE_KEY} ${AGAIN}`;

/**
 * The jobs of kinds $1, payloads $2, due at $3 (null: now), of dedupe keys $4 (null: none), the four arrays
 * side by side, only where `condition` holds: its own bind parameters start at $5. One statement for all of
 * them, however many. A job of a key already waiting is left as it is.
 */
export const enqueueWhere = (condition: string) => `
  INSERT INTO jobs (kind, payload, run_at, dedupe_key)
  SELECT j.kind, j.payload::jsonb, COALESCE(j.run_at, now()), j.dedupe_key
  FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[]) AS j (kind, payload, run_at, dedupe_key)
  WHERE ${condition}
  ${ON_DEDUPE_KEY} DO NOTHING`;

const CLAIMED = 'j.id, j.kind, j.payload, j.attempts, j.claims, j.version';

/**
 * Up to $2 due jobs of kind $1 (waiting and due, or running past their lease), oldest due first, leased
 * for $3 ms: their `run_at` moves to the lease's end, so that no other worker takes them meanwhile and a
 * dead worker's jobs come back by themselves. With $4 ms, none when a job of the kind was claimed that
 * recently: a pace kept across workers.
 */
export const CLAIM_DUE = `
  UPDATE jobs j SET state = 'running', run_at = now() + $3 * interval '1 millisecond',
    attempted_at = now(), claims = j.claims + 1
  FROM (SELECT id FROM jobs
        WHERE kind = $1 AND state IN ('queued', 'running') AND run_at <= now()
          AND NOT EXISTS (SELECT 1 FROM jobs WHERE kind = $1
                          AND attempted_at > now() - $4 * interval '1 millisecond')
        ORDER BY run_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) due
  WHERE j.id = due.id
  RETURNING ${CLAIMED}`;

/**
 * Job $1, run under claim $2 from version $3: done (its failed attempts kept), or due again now with
 * none if enqueued again meanwhile.
 */
export const COMPLETE = `
  UPDATE jobs SET last_error = NULL,
    state = CASE WHEN version = $3 THEN 'done' ELSE 'queued' END,
    finished_at = CASE WHEN version = $3 THEN now() END,
    run_at = now(), attempts = CASE WHEN version = $3 THEN attempts ELSE 0 END
  WHERE id = $1 AND claims = $2 AND state = 'running'`;

/**
 * Job $1's run under claim $2 (version $3) failed with $4: due again in $5 ms, its attempts counted when
 * $6, and dead once they reach $7 (a job enqueued again meanwhile is due at once and never dead).
 */
export const FAIL = `
  UPDATE jobs SET last_error = $4,
    attempts = attempts + CASE WHEN $6::boolean THEN 1 ELSE 0 END,
    state = CASE WHEN version = $3 AND attempts + CASE WHEN $6::boolean THEN 1 ELSE 0 END >= $7
                 THEN 'dead' ELSE 'queued' END,
    finished_at = CASE WHEN version = $3 AND attempts + CASE WHEN $6::boolean THEN 1 ELSE 0 END >= $7
                       THEN now() END,
    run_at = CASE WHEN version = $3 THEN now() + $5 * interval '1 millisecond' ELSE now() END
  WHERE id = $1 AND claims = $2 AND state = 'running'
  RETURNING state`;

/** The claimed jobs $1 a stopping worker did not get to: due again at once. */
export const RELEASE = `
  UPDATE jobs SET state = 'queued', run_at = now() WHERE id = ANY($1::bigint[]) AND state = 'running'`;

const LISTED = `id, kind, state, payload, attempts, run_at AS "runAt", dedupe_key AS "dedupeKey",
  last_error AS "lastError", created_at AS "createdAt", attempted_at AS "attemptedAt",
  finished_at AS "finishedAt"`;

/**
 * The latest $3 jobs (below id $4 when given), of state $1 and kind $2 when given, newest first; with $5
 * only those not done that failed at least once.
 */
export const LIST = `SELECT ${LISTED} FROM jobs
  WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR kind = $2)
    AND ($4::bigint IS NULL OR id < $4) AND (NOT $5::boolean OR (state <> 'done' AND last_error IS NOT NULL))
  ORDER BY id DESC LIMIT $3`;

/** Job $1 (of kind $2 when given), dead or waiting, due again now, its attempts and last error forgotten. */
export const RETRY = `UPDATE jobs
  SET state = 'queued', run_at = now(), attempts = 0, last_error = NULL, finished_at = NULL
  WHERE id = $1 AND ($2::text IS NULL OR kind = $2) AND state IN ('queued', 'dead') RETURNING ${LISTED}`;

const WAITING_AND_DEAD = `
  count(*) FILTER (WHERE state IN ('queued', 'running'))::int AS waiting,
  count(*) FILTER (WHERE state = 'dead')::int AS dead`;

/** Of kind $1: how many wait (due, later or running) and how many are dead. */
export const COUNT = `SELECT ${WAITING_AND_DEAD} FROM jobs WHERE kind = $1 AND state <> 'done'`;

/** The same, for every kind that has jobs not done. */
export const COUNT_BY_KIND = `SELECT kind, ${WAITING_AND_DEAD} FROM jobs WHERE state <> 'done' GROUP BY kind`;

/** The dead jobs of kind $1 and dedupe keys $2, whose work was done another way: done now. */
export const SETTLE_DEAD = `UPDATE jobs SET state = 'done', finished_at = now()
  WHERE kind = $1 AND state = 'dead' AND dedupe_key = ANY($2::text[])`;

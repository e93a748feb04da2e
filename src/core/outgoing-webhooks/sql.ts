/** Raw SQL of the webhooks to the seller's systems: the tables of migration 056. */

const ENDPOINT = `id, url, events, disabled_at AS "disabledAt", created_at AS "createdAt",
  previous_until AS "previousUntil"`;

/** Endpoint for url $1, events $2, secret $3, made by $4. */
export const INSERT_ENDPOINT = `INSERT INTO webhook_endpoints (url, events, secret, created_by)
  VALUES ($1, $2::text[], $3, $4) RETURNING ${ENDPOINT}`;

/** Every endpoint, the removed ones with $1, oldest first. */
export const LIST_ENDPOINTS = `SELECT ${ENDPOINT} FROM webhook_endpoints
  WHERE $1::boolean OR disabled_at IS NULL ORDER BY id`;

/** Endpoint $1 signs with $2 from now, its old secret still valid until now + $3 ms. */
export const ROTATE_SECRET = `UPDATE webhook_endpoints
  SET previous_secret = secret, previous_until = now() + $3 * interval '1 millisecond', secret = $2
  WHERE id = $1 AND disabled_at IS NULL RETURNING ${ENDPOINT}`;

/** Endpoint $1 removed: nothing more is queued for it (its deliveries and attempts stay readable). */
export const REMOVE_ENDPOINT = `UPDATE webhook_endpoints SET disabled_at = now()
  WHERE id = $1 AND disabled_at IS NULL RETURNING ${ENDPOINT}`;

/** What a delivery to endpoint $1 needs: its url and the secrets that sign now. */
export const DELIVERY_TARGET = `SELECT url, disabled_at IS NOT NULL AS disabled,
  array_remove(ARRAY[secret, CASE WHEN previous_until > now() THEN previous_secret END], NULL) AS secrets
  FROM webhook_endpoints WHERE id = $1`;

/** One try of event $2 to endpoint $1 by job $3: its status $4 or error $5, answer $6, in $7 ms. */
export const INSERT_ATTEMPT = `INSERT INTO webhook_attempts
  (endpoint_id, event_id, job_id, status, error, response, duration_ms)
  VALUES ($1, $2::uuid, $3, $4, $5, $6, $7)`;

/** The latest $2 tries to endpoint $1, newest first, each with its event type and its job's state now. */
export const LIST_ATTEMPTS = `SELECT a.id, a.event_id AS "eventId", j.payload->>'type' AS "type", a.job_id AS "jobId",
  a.attempted_at AS "attemptedAt", a.status, a.error, a.response, a.duration_ms AS "durationMs",
  j.state AS "jobState"
  FROM webhook_attempts a LEFT JOIN jobs j ON j.id = a.job_id
  WHERE a.endpoint_id = $1 ORDER BY a.id DESC LIMIT $2`;

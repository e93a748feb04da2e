/** The revocation guard's raw SQL. */
import { GRACE_CUT_KEY_PREFIX } from './grace-cuts';

/**
 * Revokes held and not released, automatic revokes (by `sources`; a cancel's grace cut is none: it takes
 * at most a grace, once per subscription) of the last hour, and, when $1 (the configured limit) is null,
 * the records with premium now, which the default limit follows.
 */
export function guardState(sources: readonly string[]): string {
  const automatic = sources.map((source) => `'${source}'`).join(', ');
  return `
  SELECT (SELECT count(*) FROM held_revokes WHERE released_at IS NULL)::int AS pending,
         (SELECT count(*) FROM premium_grants
          WHERE kind = 'revoke' AND source IN (${automatic})
            AND NOT starts_with(idempotency_key, '${GRACE_CUT_KEY_PREFIX}')
            AND created_at > now() - interval '1 hour')::int AS "lastHour",
         CASE WHEN $1::int IS NULL
           THEN (SELECT count(*) FROM user_premiums WHERE expires_at > now())
              + (SELECT count(*) FROM server_premiums WHERE expires_at > now())
           ELSE 0 END::int AS active`;
}

/**
 * Holds request $2 under its idempotency key $1; the same key again answers the row held before
 * (`heldNow` false: an update leaves the row's xmax set).
 */
export const INSERT_HELD_REVOKE = `
  INSERT INTO held_revokes (idempotency_key, request) VALUES ($1, $2)
  ON CONFLICT (idempotency_key) DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
  RETURNING id, xmax = 0 AS "heldNow"`;

export const LIST_HELD = `SELECT id, held_at AS "heldAt", request FROM held_revokes WHERE released_at IS NULL ORDER BY id`;

export const COUNT_HELD = 'SELECT count(*)::int AS held FROM held_revokes WHERE released_at IS NULL';

export const LOCK_HELD = 'SELECT id FROM held_revokes WHERE id = $1 AND released_at IS NULL FOR UPDATE';

export const MARK_RELEASED = `UPDATE held_revokes SET released_at = now(), released_by = $2, outcome = $3 WHERE id = $1 RETURNING id`;

/** Withdraws the revokes held under the idempotency keys $1 that still wait, by $2 for reason $3. */
export const WITHDRAW_HELD = `UPDATE held_revokes SET released_at = now(), released_by = $2, outcome = $3
  WHERE idempotency_key = ANY($1::text[]) AND released_at IS NULL`;

import type { PlainQuery } from '../db/prepared-statements';

/**
 * The status route's one indexed read, prepared (see getPremiumStatus): the user's expiry, with one row
 * per tier they hold days of (`user_tier_expiries`, migration 027), its rank and features; one row of
 * NULL tier when they hold none, then with the features of the catalog's default tier (DEFAULT_TIER in
 * premium/types.ts, which sits above this area) when they are premium all the same (days written before
 * tiers, see getPremiumStatus).
 */
export const premiumStatus = (providerId: string): PlainQuery => ({
  name: 'premium-status',
  text: statusRows('u.provider_id = $1'),
  values: [providerId],
});

function statusRows(where: string): string {
  return `SELECT u.provider_id, u.premium_expires_at, e.tier, t.rank, t.features,
           extract(epoch FROM e.expires_at)::float8 * 1000 AS ends_ms,
           CASE WHEN e.tier IS NULL AND u.premium_expires_at > now()
             THEN (SELECT features FROM tiers WHERE code = 'premium') END AS default_features
         FROM users u
         LEFT JOIN user_tier_expiries e ON e.user_id = u.id AND e.expires_at > now()
         LEFT JOIN tiers t ON t.code = e.tier
         WHERE ${where}`;
}

/** premiumStatus's rows of many users at once ($1: their provider ids); a user unknown has none. */
export const PREMIUM_STATUSES = statusRows('u.provider_id = ANY($1::text[])');

/* Refused gift and offer codes (failed-attempts.ts): `code_attempt_failures`. */

/** Failures of user $1 and of IP $2 within the last `windowHours`, and when the oldest leaves it. */
export function countFailedAttempts(windowHours: number): string {
  const window = `make_interval(hours => ${windowHours})`;
  return `
  SELECT count(*) FILTER (WHERE user_id = $1)::int AS "byUser", count(*) FILTER (WHERE ip = $2)::int AS "byIp",
         min(created_at) FILTER (WHERE user_id = $1) + ${window} AS "userFreeAt",
         min(created_at) FILTER (WHERE ip = $2) + ${window} AS "ipFreeAt"
  FROM code_attempt_failures
  WHERE created_at > now() - ${window} AND (user_id = $1 OR ip = $2)`;
}

export const INSERT_FAILED_ATTEMPT = 'INSERT INTO code_attempt_failures (user_id, ip) VALUES ($1, $2)';

import type { PlainQuery } from '../db/prepared-statements';

/**
 * The status route's one indexed read, prepared (see getPremiumStatus): the user's expiry, with one row
 * per tier they hold days of (`user_tier_expiries`, migration 027); one row of NULL tier when they hold
 * none. The tiers' ranks and features come from the catalog kept in the process (tier-catalog.ts):
 * every table more in the read cost PostgreSQL its opening on each request (docs/performance.md).
 */
export const premiumStatus = (providerId: string): PlainQuery => ({
  name: 'premium-status',
  text: statusRows('u.provider_id = $1'),
  values: [providerId],
});

function statusRows(where: string): string {
  return `SELECT u.provider_id, u.premium_expires_at, e.tier, date_part('epoch', e.expires_at) * 1000 AS ends_ms
         FROM users u
         LEFT JOIN user_tier_expiries e ON e.user_id = u.id AND e.expires_at > now()
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

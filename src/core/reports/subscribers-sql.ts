/** The statuses of a subscription that still renews (DESIGN: live). */
export const LIVE_STATUSES = ['authenticated', 'active', 'pending'];

/** Subscriptions by status. */
export const BY_STATUS_SQL = `SELECT status, count(*)::int AS count FROM subscriptions GROUP BY status`;

/** MRR in paise: each live subscription's plan price per month (a Yearly one counts 1/12). */
export const MRR_SQL = `
SELECT round(COALESCE(sum(CASE plan_type WHEN 'Yearly' THEN amount_paise / 12.0 ELSE amount_paise END), 0))::bigint
         AS paise
FROM subscriptions WHERE status IN ('authenticated', 'active', 'pending')`;

/** Records whose premium runs now (version 0 is a record not yet written). */
export const ACTIVE_PREMIUM_SQL = `
SELECT (SELECT count(*) FROM user_premiums WHERE expires_at > now() AND version > 0)::int AS "USER",
       (SELECT count(*) FROM server_premiums WHERE expires_at > now() AND version > 0)::int AS "SERVER"`;

/**
 * Per calendar month in zone $1: the month $2 (`YYYY-MM-01`) and the 11 before it. A subscription's status at a time
 * is its last change before it (`subscription_status_changes`).
 * - liveAtStart: live at the month's first instant;
 * - new: subscriptions first authenticated or activated in the month;
 * - renewed: charges in the month that are not their subscription's first;
 * - cancelled / halted / completed: subscriptions that changed to it in the month;
 * - ended: subscriptions that changed to any of the three (churn = ended ÷ liveAtStart).
 */
export const MOVEMENTS_SQL = `
WITH months AS (
  SELECT to_char(m, 'YYYY-MM') AS period, m AT TIME ZONE $1 AS from_at,
         (m + interval '1 month') AT TIME ZONE $1 AS to_at
  FROM generate_series($2::date - interval '11 months', $2::date, interval '1 month') m
),
first_live AS (
  SELECT subscription_id, min(changed_at) AS at FROM subscription_status_changes
  WHERE status IN ('authenticated', 'active') GROUP BY subscription_id
),
renewals AS (
  SELECT c.created_at AS at FROM subscription_charges c
  WHERE EXISTS (SELECT 1 FROM subscription_charges p
                WHERE p.subscription_id = c.subscription_id AND (p.created_at, p.id) < (c.created_at, c.id))
)
SELECT m.period,
  (SELECT count(*) FROM subscriptions s
   WHERE (SELECT x.status FROM subscription_status_changes x
          WHERE x.subscription_id = s.id AND x.changed_at < m.from_at
          ORDER BY x.changed_at DESC, x.id DESC LIMIT 1) IN ('authenticated', 'active', 'pending'))::int
    AS "liveAtStart",
  (SELECT count(*) FROM first_live f WHERE f.at >= m.from_at AND f.at < m.to_at)::int AS "new",
  (SELECT count(*) FROM renewals r WHERE r.at >= m.from_at AND r.at < m.to_at)::int AS renewed,
  count(DISTINCT x.subscription_id) FILTER (WHERE x.status = 'cancelled')::int AS cancelled,
  count(DISTINCT x.subscription_id) FILTER (WHERE x.status = 'halted')::int AS halted,
  count(DISTINCT x.subscription_id) FILTER (WHERE x.status = 'completed')::int AS completed,
  count(DISTINCT x.subscription_id)::int AS ended
FROM months m
LEFT JOIN subscription_status_changes x
  ON x.changed_at >= m.from_at AND x.changed_at < m.to_at AND x.status IN ('cancelled', 'halted', 'completed')
GROUP BY m.period, m.from_at, m.to_at
ORDER BY m.period`;

/**
 * Subscriptions whose charge is failing now (pending: Razorpay retries; halted: it gave up), with the end
 * of the paid cycle and of the grace after it ($1: SUBSCRIPTION_GRACE_HOURS), soonest grace end first.
 */
export const FAILING_CHARGES_SQL = `
SELECT s.processor_subscription_id AS "subscriptionId", s.status, s.category, u.provider_id AS "providerId",
       s.guild_id AS "guildId", s.plan_type AS "planType", s.amount_paise AS "amountPaise",
       s.current_end AS "currentEnd", s.current_end + make_interval(hours => $1) AS "graceUntil",
       (SELECT max(x.changed_at) FROM subscription_status_changes x
        WHERE x.subscription_id = s.id AND x.status = s.status) AS since
FROM subscriptions s JOIN users u ON u.id = s.buyer_user_id
WHERE s.status IN ('pending', 'halted')
ORDER BY "graceUntil" NULLS LAST, s.id`;

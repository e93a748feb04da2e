/** The reports' raw SQL: read-only queries over the money and subscription tables, in the report's zone. */

import { monthsOfSql } from '../plans';

/** A subscription's price per month in paise, from its cycle's length; `s.` names the table. */
function monthlyPaise(table = ''): string {
  return `${table}amount_paise / ${monthsOfSql(`${table}duration_days`)}`;
}

/**
 * The order `o`, or the subscription charge `c` and its subscription `s`, that a row (alias `payment`) of
 * `payments` was recorded on: its `order_id` or `charge_id`.
 */
function sourceOf(payment: string): string {
  return `LEFT JOIN orders o ON o.id = ${payment}.order_id
  LEFT JOIN subscription_charges c ON c.id = ${payment}.charge_id
  LEFT JOIN subscriptions s ON s.id = c.subscription_id`;
}

/**
 * What a payment `p` of `payments` (docs/payments.md) was sold as, for the revenue figures: `oneOff` (an
 * order's) or `subscription` (a charge's), its target's category, its tier and plan, and what it bought
 * (`purchase`: single, bundle, upgrade or gift). Kept on the payment when it was recorded, so a later price,
 * tier or plan change never moves money between them.
 */
const SOLD_AS = `CASE p.source WHEN 'order' THEN 'oneOff' ELSE 'subscription' END AS kind,
  p.category, p.tier, p.plan_type AS plan, p.kind AS purchase`;

/**
 * Money in and out, one row per (period, kind, category, tier, plan, purchase), in paise. $1, $2: first
 * and last day (`YYYY-MM-DD`, in the report's zone); $3: the IANA zone; $4: `day` or `month`. A refund or
 * a dispute counts as what its payment was sold as (SOLD_AS).
 *
 * - gross: captured payments (`payments`), by the day they were paid (an order's `paid_at`, a charge's
 *   `created_at`: each charge is a captured one);
 * - refunded: refunds Razorpay processed, by the day it did (`payment_refunds.processed_at`);
 * - disputed: disputes lost, their disputed amount (the payment's when Razorpay did not say), by the day
 *   they were recorded lost (`payment_disputes.updated_at`: a lost dispute changes no more).
 */
export const REVENUE_SQL = `
WITH bounds AS (
  SELECT $1::date::timestamp AT TIME ZONE $3 AS from_at,
         ($2::date + 1)::timestamp AT TIME ZONE $3 AS to_at
),
paid AS (
  SELECT p.paid_at AS at, ${SOLD_AS}, p.amount_paise AS paise FROM payments p
),
refunded AS (
  SELECT r.processed_at AS at, ${SOLD_AS}, r.amount_paise AS paise
  FROM payment_refunds r JOIN payments p ON p.payment_id = r.payment_id
  WHERE r.status = 'processed'
),
disputed AS (
  SELECT d.updated_at AS at, ${SOLD_AS}, COALESCE(d.amount_paise, p.amount_paise) AS paise
  FROM payment_disputes d JOIN payments p ON p.payment_id = d.payment_id
  WHERE d.status = 'lost'
),
entries AS (
  SELECT at, kind, category, tier, plan, purchase, paise AS gross, 0 AS refunded, 0 AS disputed, 1 AS payments
  FROM paid
  UNION ALL SELECT at, kind, category, tier, plan, purchase, 0, paise, 0, 0 FROM refunded
  UNION ALL SELECT at, kind, category, tier, plan, purchase, 0, 0, paise, 0 FROM disputed
)
SELECT to_char(date_trunc($4, e.at AT TIME ZONE $3), CASE $4 WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END)
         AS period,
       e.kind, e.category, e.tier, e.plan, e.purchase,
       sum(e.gross)::bigint AS gross, sum(e.refunded)::bigint AS refunded,
       sum(e.disputed)::bigint AS disputed, sum(e.payments)::bigint AS payments
FROM entries e, bounds b
WHERE e.at >= b.from_at AND e.at < b.to_at
GROUP BY 1, 2, 3, 4, 5, 6
ORDER BY 1, 2, 3, 4, 5, 6`;

/** What buyers read for each tier and plan code: a report's rows are keyed by code. */
export const CATALOG_NAMES_SQL = `SELECT 'tier' AS kind, code, name FROM tiers
  UNION ALL SELECT 'plan', code, name FROM plans`;

/** Every period from $1 to $2 ($3 `day` or `month`), empty ones included. */
export const PERIODS_SQL = `
SELECT to_char(p, CASE $3 WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) AS period
FROM generate_series(date_trunc($3, $1::date), $2::date, ('1 ' || $3)::interval) p
ORDER BY p`;

/** The statuses of a subscription that still renews: the live ones. */
export const LIVE_STATUSES = ['authenticated', 'active', 'pending'];

/** Subscriptions by status. */
export const BY_STATUS_SQL = `SELECT status, count(*)::int AS count FROM subscriptions GROUP BY status`;

/**
 * A subscription counts in MRR from its first paid charge: one in its trial, or waiting for days its
 * target holds, has promised nothing yet. `at`: as of that instant (SQL), else now.
 */
const chargedSql = (subscription: string, at?: string) => `EXISTS (SELECT 1 FROM subscription_charges c
  WHERE c.subscription_id = ${subscription}.id${at ? ` AND c.created_at <= ${at}` : ''})`;

/** MRR in paise: each live subscription's plan price per month, once charged. */
export const MRR_SQL = `
SELECT round(COALESCE(sum(${monthlyPaise()}), 0))::bigint
         AS paise
FROM subscriptions WHERE status IN ('authenticated', 'active', 'pending') AND ${chargedSql('subscriptions')}`;

/**
 * The live subscriptions that were charged apart, with their count and MRR in paise: `failing` (`pending`: a charge failed,
 * Razorpay retries), `cancelling` (authenticated or active, cancelled at the cycle's end: no renewal
 * comes) and `renewing` (the rest: the MRR that recurs).
 */
export const MRR_BY_STANDING_SQL = `
SELECT CASE WHEN status = 'pending' THEN 'failing' WHEN cancel_at_cycle_end THEN 'cancelling' ELSE 'renewing' END
         AS standing,
       count(*)::int AS subscriptions, round(sum(${monthlyPaise()}))::bigint AS paise
FROM subscriptions WHERE status IN ('authenticated', 'active', 'pending') AND ${chargedSql('subscriptions')}
GROUP BY 1`;

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

/** The buyer `u` as an operator knows them: Discord's display name, else the handle. */
const BUYER_NAME = 'COALESCE(u.global_name, u.username)';

/**
 * Subscriptions whose charge is failing now (pending: Razorpay retries; halted: it gave up), with the end
 * of the paid cycle and of the grace after it ($1: SUBSCRIPTION_GRACE_HOURS), soonest grace end first.
 */
export const FAILING_CHARGES_SQL = `
SELECT s.processor_subscription_id AS "subscriptionId", s.status, s.category, u.provider_id AS "providerId",
       ${BUYER_NAME} AS "buyerName",
       s.guild_id AS "guildId", s.plan_type AS "planType", s.amount_paise AS "amountPaise",
       s.current_end AS "currentEnd", s.current_end + make_interval(hours => $1) AS "graceUntil",
       (SELECT max(x.changed_at) FROM subscription_status_changes x
        WHERE x.subscription_id = s.id AND x.status = s.status) AS since
FROM subscriptions s JOIN users u ON u.id = s.buyer_user_id
WHERE s.status IN ('pending', 'halted')
ORDER BY "graceUntil" NULLS LAST, s.id`;

/**
 * MRR at the end of each month in zone $1, for the month $2 (`YYYY-MM-01`) and the 11 before it (the current
 * month's figure is now's, the subscribers report's `mrr`). A subscription counts where its last status
 * change before that instant (`subscription_status_changes`) is live and it was charged by then, at its
 * plan price per month.
 * Written as a join rather than a subquery per subscription and month: the latter's cost estimate made
 * PostgreSQL JIT-compile it, 1.5 s on an empty database.
 */
export const MRR_BY_MONTH_SQL = `
WITH months AS (
  SELECT to_char(m, 'YYYY-MM') AS period, least((m + interval '1 month') AT TIME ZONE $1, now()) AS at
  FROM generate_series($2::date - interval '11 months', $2::date, interval '1 month') m
),
status_at AS (
  SELECT DISTINCT ON (m.period, x.subscription_id) m.period, x.subscription_id, x.status
  FROM months m JOIN subscription_status_changes x ON x.changed_at <= m.at
  ORDER BY m.period, x.subscription_id, x.changed_at DESC, x.id DESC
)
SELECT m.period,
  round(COALESCE(sum(${monthlyPaise('s.')}), 0))::bigint
    AS paise
FROM months m
LEFT JOIN status_at a ON a.period = m.period AND a.status IN ('authenticated', 'active', 'pending')
LEFT JOIN subscriptions s ON s.id = a.subscription_id AND ${chargedSql('s', 'm.at')}
GROUP BY m.period
ORDER BY m.period`;

/**
 * Disputes still open, soonest `respond_by` first: the disputed amount (the payment's when Razorpay did not
 * say), and the payment it is about, with its order or subscription.
 */
export const OPEN_DISPUTES_SQL = `
SELECT d.dispute_id AS "disputeId", d.status, o.processor_order_id AS "orderId",
       s.processor_subscription_id AS "subscriptionId", p.payment_id AS "paymentId",
       u.provider_id AS "providerId", ${BUYER_NAME} AS "buyerName",
       COALESCE(d.amount_paise, p.amount_paise) AS "amountPaise",
       d.respond_by AS "respondBy", d.created_at AS "openedAt"
FROM payment_disputes d
JOIN payments p ON p.payment_id = d.payment_id
${sourceOf('p')}
JOIN users u ON u.id = p.buyer_user_id
WHERE d.status = 'open'
ORDER BY d.respond_by NULLS LAST, d.created_at, d.dispute_id`;

/**
 * Trials of the month $2 (`YYYY-MM-01`) in zone $1, each counted in the month it happened: started (the
 * tier granted at authorisation), converted (the first charge paid), cancelled (the subscription ended
 * before it), refused (the buyer, the guild or the card/VPA had a trial).
 */
export const TRIALS_SQL = `
WITH span AS (SELECT $2::timestamp AT TIME ZONE $1 AS from_at, ($2::timestamp + interval '1 month') AT TIME ZONE $1 AS to_at)
SELECT
  count(*) FILTER (WHERE t.status <> 'refused' AND t.started_at >= span.from_at AND t.started_at < span.to_at)::int AS started,
  count(*) FILTER (WHERE t.converted_at >= span.from_at AND t.converted_at < span.to_at)::int AS converted,
  count(*) FILTER (WHERE t.cancelled_at >= span.from_at AND t.cancelled_at < span.to_at)::int AS cancelled,
  count(*) FILTER (WHERE t.status = 'refused' AND t.started_at >= span.from_at AND t.started_at < span.to_at)::int AS refused
FROM trials t, span`;

/** The month's refused trials (as TRIALS_SQL), newest first, at most 50: what the operator looks into. */
export const TRIAL_REFUSALS_SQL = `
SELECT s.processor_subscription_id AS "subscriptionId", t.refused_reason AS reason, u.provider_id AS "providerId",
       s.guild_id AS "guildId", t.started_at AS at
FROM trials t JOIN subscriptions s ON s.id = t.subscription_id JOIN users u ON u.id = t.buyer_user_id
WHERE t.status = 'refused' AND t.started_at >= $2::timestamp AT TIME ZONE $1
  AND t.started_at < ($2::timestamp + interval '1 month') AT TIME ZONE $1
ORDER BY t.started_at DESC, t.id DESC LIMIT 50`;

/** The instants a range of days ($1 first, $2 last, `YYYY-MM-DD`) covers in zone $3: [fromAt, toAt). */
export const RANGE_SQL = `
SELECT $1::date::timestamp AT TIME ZONE $3 AS "fromAt", ($2::date + 1)::timestamp AT TIME ZONE $3 AS "toAt"`;

/**
 * The newest sales: payments (`payments`, at `paid_at`: an order's payment or a subscription charge),
 * newest first, at most $4, after the keyset ($1 time, $2 `order` or `charge`, $3 the order's or charge's
 * id: at the same instant orders come before charges). The page is read backwards on `payments_by_time`
 * and stops at $4 rows, so a page costs what it shows; the order or charge (for its state), the buyer,
 * the guild's name as the buyer's sign-in saw it and what Razorpay refunded are read for those rows only.
 */
export const SALES_SQL = `
WITH sales AS (
  SELECT p.paid_at AS at, p.source AS kind, COALESCE(p.order_id, p.charge_id) AS id, p.order_id, p.charge_id,
         p.payment_id AS "paymentId", p.buyer_user_id, p.category, p.guild_id AS "guildId", p.tier,
         p.plan_type AS "planType", p.kind AS purchase, p.amount_paise AS "amountPaise"
  FROM payments p
  WHERE (p.paid_at, p.source, COALESCE(p.order_id, p.charge_id)) < ($1::timestamptz, $2::text, $3::bigint)
  ORDER BY p.paid_at DESC, p.source DESC, COALESCE(p.order_id, p.charge_id) DESC LIMIT $4
)
SELECT x.at, x.at::text AS "keyTime", x.kind, x.id, o.processor_order_id AS "orderId",
       s.processor_subscription_id AS "subscriptionId", x."paymentId",
       u.provider_id AS "buyerProviderId", ${BUYER_NAME} AS "buyerName", x.category, x."guildId",
       (SELECT g.name FROM user_guilds g WHERE g.user_id = x.buyer_user_id AND g.guild_id = x."guildId")
         AS "guildName",
       x.tier, x."planType", x.purchase, x."amountPaise",
       COALESCE(o.status, CASE c.status WHEN 'charged' THEN 'paid' ELSE c.status END) AS status,
       (SELECT coalesce(sum(r.amount_paise), 0)::int FROM payment_refunds r
        WHERE r.payment_id = x."paymentId" AND r.status = 'processed') AS "refundedPaise"
FROM sales x JOIN users u ON u.id = x.buyer_user_id
${sourceOf('x')}
ORDER BY x.at DESC, x.kind DESC, x.id DESC`;

/**
 * Every buyer who paid, with what they bought and their lifetime value: their payments (orders' and
 * subscription charges'), less what was refunded (processed) and lost in disputes, in paise. Highest value
 * first, at most $3, after the keyset ($1 value, $2 user id). Ordering by a sum needs every payment summed
 * first: one pass over the money tables, summed by buyer and plan, then by buyer (two hash aggregates,
 * where one with `array_agg(DISTINCT …)` sorted every payment), and the buyers' names read for the page
 * only (docs/reports.md has its cost at 100k orders).
 */
export const CUSTOMERS_SQL = `
WITH money AS (
  SELECT buyer_user_id AS user_id, paid_at AS at, plan_type AS plan, amount_paise AS paise FROM payments
  UNION ALL
  SELECT p.buyer_user_id, NULL, NULL, -r.amount_paise
  FROM payment_refunds r JOIN payments p ON p.payment_id = r.payment_id
  WHERE r.status = 'processed'
  UNION ALL
  SELECT p.buyer_user_id, NULL, NULL, -COALESCE(d.amount_paise, p.amount_paise)
  FROM payment_disputes d JOIN payments p ON p.payment_id = d.payment_id
  WHERE d.status = 'lost'
),
by_plan AS (
  SELECT user_id, plan, sum(paise) AS paise, sum(paise) FILTER (WHERE at IS NOT NULL) AS gross,
         count(at) AS payments, min(at) AS first_at, max(at) AS last_at
  FROM money GROUP BY user_id, plan
),
buyers AS (
  SELECT user_id, sum(paise)::bigint AS ltv, COALESCE(sum(gross), 0)::bigint AS gross,
         sum(payments)::int AS payments, min(first_at) AS first_at, max(last_at) AS last_at,
         array_agg(plan ORDER BY plan) FILTER (WHERE plan IS NOT NULL) AS plans
  FROM by_plan GROUP BY user_id
),
page AS (
  SELECT * FROM buyers
  WHERE payments > 0 AND (ltv, user_id) < ($1::bigint, $2::bigint)
  ORDER BY ltv DESC, user_id DESC
  LIMIT $3
)
SELECT p.user_id AS id, p.ltv AS "ltvPaise", p.gross AS "grossPaise", p.payments, p.plans,
       p.first_at AS "firstPurchaseAt", p.last_at AS "lastPurchaseAt",
       u.provider_id AS "providerId", ${BUYER_NAME} AS "buyerName"
FROM page p JOIN users u ON u.id = p.user_id
ORDER BY p.ltv DESC, p.user_id DESC`;

/**
 * The subscriptions that were someone's in the range [$1, $2): authorised at some time (not `created`),
 * made before its end, and not ended (cancelled, halted, completed, expired) before its start; after id $3,
 * at most $4, oldest first. With what was charged of each, in paise.
 */
export const SUBSCRIBERS_EXPORT_SQL = `
SELECT s.id, s.processor_subscription_id AS "subscriptionId", u.provider_id AS "buyerProviderId",
       ${BUYER_NAME} AS "buyerName", s.category, s.guild_id AS "guildId", s.tier, s.plan_type AS "planType",
       s.amount_paise AS "amountPaise", s.status, s.cancel_at_cycle_end AS "cancelAtCycleEnd",
       s.created_at AS "createdAt", s.current_end AS "currentEnd",
       (SELECT count(*) FROM subscription_charges c WHERE c.subscription_id = s.id)::int AS charges,
       (SELECT coalesce(sum(c.amount_paise), 0) FROM subscription_charges c WHERE c.subscription_id = s.id)::bigint
         AS "chargedPaise"
FROM subscriptions s JOIN users u ON u.id = s.buyer_user_id
WHERE s.id > $3 AND s.status <> 'created' AND s.created_at < $2
  AND NOT (s.status IN ('cancelled', 'halted', 'completed', 'expired')
           AND (SELECT max(x.changed_at) FROM subscription_status_changes x WHERE x.subscription_id = s.id) < $1)
ORDER BY s.id
LIMIT $4`;

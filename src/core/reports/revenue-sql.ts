/**
 * Money in and out, one row per (period, kind, category), in paise. $1, $2: first and last day
 * (`YYYY-MM-DD`, in the report's zone); $3: the IANA zone; $4: `day` or `month`.
 *
 * - gross: captured payments, by the day they were paid: orders (`paid_at`) and subscription charges
 *   (each row is a captured charge, at its `created_at`);
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
  SELECT paid_at AS at, 'oneOff' AS kind, category, amount_paise AS paise FROM orders WHERE paid_at IS NOT NULL
  UNION ALL
  SELECT c.created_at, 'subscription', s.category, c.amount_paise
  FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id
),
refunded AS (
  SELECT r.processed_at AS at,
         CASE WHEN r.order_id IS NULL THEN 'subscription' ELSE 'oneOff' END AS kind,
         COALESCE(o.category, s.category) AS category, r.amount_paise AS paise
  FROM payment_refunds r
  LEFT JOIN orders o ON o.id = r.order_id
  LEFT JOIN subscription_charges c ON c.id = r.charge_id
  LEFT JOIN subscriptions s ON s.id = c.subscription_id
  WHERE r.status = 'processed'
),
disputed AS (
  SELECT d.updated_at AS at,
         CASE WHEN d.order_id IS NULL THEN 'subscription' ELSE 'oneOff' END AS kind,
         COALESCE(o.category, s.category) AS category,
         COALESCE(d.amount_paise, o.amount_paise, c.amount_paise) AS paise
  FROM payment_disputes d
  LEFT JOIN orders o ON o.id = d.order_id
  LEFT JOIN subscription_charges c ON c.id = d.charge_id
  LEFT JOIN subscriptions s ON s.id = c.subscription_id
  WHERE d.status = 'lost'
),
entries AS (
  SELECT at, kind, category, paise AS gross, 0 AS refunded, 0 AS disputed, 1 AS payments FROM paid
  UNION ALL SELECT at, kind, category, 0, paise, 0, 0 FROM refunded
  UNION ALL SELECT at, kind, category, 0, 0, paise, 0 FROM disputed
)
SELECT to_char(date_trunc($4, e.at AT TIME ZONE $3), CASE $4 WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END)
         AS period,
       e.kind, e.category,
       sum(e.gross)::bigint AS gross, sum(e.refunded)::bigint AS refunded,
       sum(e.disputed)::bigint AS disputed, sum(e.payments)::bigint AS payments
FROM entries e, bounds b
WHERE e.at >= b.from_at AND e.at < b.to_at
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3`;

/** Every period from $1 to $2 ($3 `day` or `month`), empty ones included. */
export const PERIODS_SQL = `
SELECT to_char(p, CASE $3 WHEN 'day' THEN 'YYYY-MM-DD' ELSE 'YYYY-MM' END) AS period
FROM generate_series(date_trunc($3, $1::date), $2::date, ('1 ' || $3)::interval) p
ORDER BY p`;

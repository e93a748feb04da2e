/** The worker's raw SQL: job claims and the business metrics. The relay keeps its own in relay/sql.ts. */

/** Claims tick $2 of job $1 for worker $3 with a lease of $4 ms, unless the tick is taken or the job runs. */
export const CLAIM_TICK = `
  INSERT INTO job_runs (job, tick, worker, lease_until)
  SELECT $1, $2, $3, now() + $4 * interval '1 millisecond'
  WHERE NOT EXISTS (
    SELECT 1 FROM job_runs WHERE job = $1 AND finished_at IS NULL AND lease_until > now())
  ON CONFLICT (job, tick) DO NOTHING
  RETURNING 1`;

export const FINISH_TICK =
  'UPDATE job_runs SET finished_at = now(), outcome = $3 WHERE job = $1 AND tick = $2';

export const ACTIVE_PREMIUM = `
  SELECT (SELECT count(*) FROM user_premiums WHERE expires_at > now() AND version > 0)::float8 AS user,
         (SELECT count(*) FROM server_premiums WHERE expires_at > now() AND version > 0)::float8 AS server`;

export const SUBSCRIPTIONS_BY_STATUS =
  'SELECT status, count(*)::float8 AS count FROM subscriptions GROUP BY status';

/** All-time sums in paise: captured payments, processed refunds, lost disputes. */
export const REVENUE_TOTALS = `
  SELECT
    (SELECT COALESCE(sum(amount_paise), 0) FROM orders WHERE paid_at IS NOT NULL)::float8
      + (SELECT COALESCE(sum(amount_paise), 0) FROM subscription_charges)::float8 AS paid,
    (SELECT COALESCE(sum(amount_paise), 0) FROM payment_refunds WHERE status = 'processed')::float8
      AS refunded,
    (SELECT COALESCE(sum(COALESCE(d.amount_paise, o.amount_paise, c.amount_paise)), 0)
     FROM payment_disputes d
     LEFT JOIN orders o ON o.id = d.order_id
     LEFT JOIN subscription_charges c ON c.id = d.charge_id
     WHERE d.status = 'lost')::float8 AS disputed`;

export const LAST_WEBHOOK_AGE =
  'SELECT extract(epoch FROM now() - max(received_at))::float8 AS age FROM webhook_events';

export const OPEN_DISPUTES = "SELECT count(*)::float8 AS count FROM payment_disputes WHERE status = 'open'";

export const SOONEST_RESPOND_BY = `
  SELECT extract(epoch FROM min(respond_by) - now())::float8 AS left
  FROM payment_disputes WHERE status = 'open'`;

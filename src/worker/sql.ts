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
    (SELECT COALESCE(sum(amount_paise), 0) FROM payments)::float8 AS paid,
    (SELECT COALESCE(sum(amount_paise), 0) FROM payment_refunds WHERE status = 'processed')::float8
      AS refunded,
    (SELECT COALESCE(sum(COALESCE(d.amount_paise, p.amount_paise)), 0)
     FROM payment_disputes d JOIN payments p ON p.payment_id = d.payment_id
     WHERE d.status = 'lost')::float8 AS disputed`;

export const LAST_WEBHOOK_AGE =
  'SELECT extract(epoch FROM now() - max(received_at))::float8 AS age FROM webhook_events';

export const OPEN_DISPUTES = "SELECT count(*)::float8 AS count FROM payment_disputes WHERE status = 'open'";

export const SOONEST_RESPOND_BY = `
  SELECT extract(epoch FROM min(respond_by) - now())::float8 AS left
  FROM payment_disputes WHERE status = 'open'`;

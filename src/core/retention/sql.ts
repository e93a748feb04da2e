/** Retention's raw SQL: deletions of bookkeeping past its use, each counted. */

/** Runs `deleteStatement` and answers how many rows it removed. */
const counted = (deleteStatement: string) =>
  `WITH removed AS (${deleteStatement} RETURNING 1) SELECT count(*)::int AS count FROM removed`;

/** Each deletes the rows older than `kept`, an interval. */
export const deleteWebhookIdsBefore = (kept: string) =>
  counted(`DELETE FROM webhook_events WHERE received_at < now() - interval '${kept}'`);

export const deleteDeadOutboxRowsBefore = (kept: string) =>
  counted(`DELETE FROM outbox WHERE dead_at < now() - interval '${kept}'`);

export const deleteJobRunsBefore = (kept: string) =>
  counted(`DELETE FROM job_runs WHERE tick < now() - interval '${kept}'`);

export const deleteCodeAttemptFailuresBefore = (kept: string) =>
  counted(`DELETE FROM code_attempt_failures WHERE created_at < now() - interval '${kept}'`);

/** Jobs done, or given up (dead), more than `kept` ago. */
export const deleteFinishedJobsBefore = (kept: string) =>
  counted(`DELETE FROM jobs WHERE finished_at < now() - interval '${kept}'`);

/** Jobs of the kinds $1 (text[]: nothing runs them now) that wait more than `kept` after they were written. */
export const deleteWaitingJobsBefore = (kept: string) =>
  counted(
    `DELETE FROM jobs WHERE kind = ANY ($1::text[]) AND state = 'queued' AND created_at < now() - interval '${kept}'`,
  );

/** Tries of webhooks to the seller's systems, and the once-per-endpoint marks of their events. */
export const deleteWebhookAttemptsBefore = (kept: string) =>
  counted(`DELETE FROM webhook_attempts WHERE attempted_at < now() - interval '${kept}'`);

export const deleteWebhookDeliveriesBefore = (kept: string) =>
  counted(`DELETE FROM webhook_deliveries WHERE created_at < now() - interval '${kept}'`);

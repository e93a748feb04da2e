import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { retryJob, type JobRow, type JobState } from '../jobs';
import { DELIVERY_TARGET, INSERT_ATTEMPT, LIST_ATTEMPTS } from './sql';

/** The kind of the work queue's jobs that deliver one event to one endpoint (queued by migration 056's trigger). */
export const DELIVERY_JOB = 'webhook_delivery';

/**
 * What a body's `data` always carries: the event's id (the `webhook-id`) and when it was recorded. A
 * `premium_changed` event is the bot's event; a money event is built by migration 066's triggers.
 */
export interface WebhookData {
  eventId: string;
  occurredAt: string;
  [field: string]: unknown;
}

/** A delivery job's payload. */
export interface DeliveryPayload {
  endpointId: number;
  type: string;
  event: WebhookData;
}

/** An answer kept no longer than this (bytes): enough to see why an endpoint refused. */
export const RESPONSE_LIMIT = 1024;

/**
 * What is sent for a delivery, the same at every try: `webhook-id` is the event's id, and the body
 * `{type, timestamp, data}` (docs/webhooks.md).
 */
export function messageOf({ type, event }: DeliveryPayload): { id: string; body: string } {
  return { id: event.eventId, body: JSON.stringify({ type, timestamp: event.occurredAt, data: event }) };
}

/** Where endpoint `id` is and the secrets that sign for it now; null: it is no more. */
export async function deliveryTarget(
  sequelize: Sequelize,
  id: number,
): Promise<{ url: string; secrets: string[]; disabled: boolean } | null> {
  const [row] = await selectRows<{ url: string; secrets: string[]; disabled: boolean }>(
    sequelize,
    DELIVERY_TARGET,
    [id],
  );
  return row ?? null;
}

export interface Attempt {
  endpointId: number;
  eventId: string;
  jobId: number;
  /** The HTTP status, null when none came. */
  status: number | null;
  error: string | null;
  response: string | null;
  durationMs: number;
}

/** Keeps one try, its answer cut to RESPONSE_LIMIT bytes. */
export async function recordAttempt(sequelize: Sequelize, attempt: Attempt): Promise<void> {
  const response =
    attempt.response === null
      ? null
      : Buffer.from(attempt.response)
          .subarray(0, RESPONSE_LIMIT)
          .toString('utf8')
          .replace(/\uFFFD$/, '');
  await execute(sequelize, INSERT_ATTEMPT, [
    attempt.endpointId,
    attempt.eventId,
    attempt.jobId,
    attempt.status,
    attempt.error,
    response,
    Math.round(attempt.durationMs),
  ]);
}

export type AttemptRow = Omit<Attempt, 'endpointId'> & {
  id: number;
  attemptedAt: Date;
  /** The event's type (`sale`, …); null once its job is gone (housekeeping). */
  type: string | null;
  /** Its delivery's job now: `dead` is a delivery given up, which `replayDelivery` runs again; null: gone. */
  jobState: JobState | null;
};

/** The latest tries to endpoint `id`, newest first. */
export async function listAttempts(sequelize: Sequelize, id: number, limit = 50): Promise<AttemptRow[]> {
  const rows = await selectRows<AttemptRow>(sequelize, LIST_ATTEMPTS, [id, limit]);
  return rows.map((row) => ({ ...row, id: Number(row.id), jobId: Number(row.jobId) }));
}

/** Runs a delivery given up (a dead `webhook_delivery` job) again now, its tries forgotten. */
export async function replayDelivery(sequelize: Sequelize, jobId: number): Promise<JobRow> {
  try {
    return await retryJob(sequelize, jobId, DELIVERY_JOB);
  } catch (error) {
    if (!isAppError(error) || error.code !== 'JOB_NOT_FOUND') throw error;
    throw AppError.notFound(
      'WEBHOOK_DELIVERY_NOT_FOUND',
      `no webhook delivery job ${jobId} dead or waiting (delivered, running, or none)`,
    );
  }
}

import type { Transaction } from 'sequelize';
import { execute } from '../db/database';
import type { PlainQuery } from '../db/plain-query';
import { ENQUEUE, ENQUEUE_EACH, ENQUEUE_MANY, enqueueWhere } from './sql';

export interface EnqueueOptions {
  /** Not before then (now by default). */
  runAt?: Date;
  /**
   * One job of the kind per key waits or runs at a time: enqueued again, it takes the new payload and
   * runs (again) after the run in hand, never beside it.
   */
  dedupeKey?: string;
}

function bindOf(kind: string, payload: object, { runAt, dedupeKey }: EnqueueOptions): unknown[] {
  return [kind, JSON.stringify(payload), runAt?.toISOString() ?? null, dedupeKey ?? null];
}

/**
 * Queues a job in the caller's transaction, the one that makes the change it follows: it runs (in the
 * worker, at least once) if and only if that transaction commits.
 */
export async function enqueue(
  kind: string,
  payload: object,
  options: EnqueueOptions,
  transaction: Transaction,
): Promise<void> {
  await execute(transaction, ENQUEUE, bindOf(kind, payload, options));
}

/** Queues jobs of one kind in the caller's transaction in one statement, each once per its dedupe key. */
export async function enqueueMany(
  kind: string,
  jobs: { payload: object; dedupeKey: string }[],
  transaction: Transaction,
): Promise<void> {
  if (jobs.length === 0) return;
  const payloads = jobs.map((job) => JSON.stringify(job.payload));
  await execute(transaction, ENQUEUE_MANY, [kind, payloads, jobs.map((job) => job.dedupeKey)]);
}

/** The statement that queues a job in a plain transaction (the paid-and-grant one's). */
export function enqueueStatement(kind: string, payload: object, options: EnqueueOptions = {}): PlainQuery {
  return { name: 'enqueue-job', text: ENQUEUE, values: bindOf(kind, payload, options) };
}

/** A job to queue: its kind, its payload and when and how it runs. */
export interface QueuedJob {
  kind: string;
  payload: object;
  options?: EnqueueOptions;
}

/**
 * The one statement that queues `jobs` in a plain transaction only where `condition` (SQL, its bind
 * parameters from $5 on, given as `values`) holds when it runs.
 */
export function enqueueWhereStatement(
  jobs: QueuedJob[],
  condition: { name: string; sql: string; values: unknown[] },
): PlainQuery {
  const binds = jobs.map(({ kind, payload, options = {} }) => bindOf(kind, payload, options));
  const columns = [0, 1, 2, 3].map((column) => binds.map((bind) => bind[column]));
  return {
    name: `enqueue-jobs-where-${condition.name}`,
    text: enqueueWhere(condition.sql),
    values: [...columns, ...condition.values],
  };
}

/**
 * The statement that queues one job of `kind` per key (distinct), each key its job's dedupe key and its
 * payload's `field`: for a caller on a plain connection (the relay's settling transaction).
 */
export function enqueueEachStatement(
  kind: string,
  keys: string[],
  field: string,
): { text: string; values: unknown[] } {
  return { text: ENQUEUE_EACH, values: [kind, keys, field] };
}

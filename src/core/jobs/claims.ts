import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { CLAIM_DUE, COMPLETE, FAIL, RELEASE } from './sql';

/** A job a worker holds under a lease. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  /** Failed attempts so far. */
  attempts: number;
  /** Which claim of the job this is: only the latest finishes it. */
  claims: number;
  /** Its version when claimed: enqueued again since, it is due again once this run ends. */
  version: number;
}

export interface ClaimOptions {
  limit: number;
  /** Past this a job not finished is due again (its worker is taken for dead). */
  leaseMs: number;
  /** No claim of the kind sooner than this after the last one, across workers. */
  spacingMs?: number;
}

/** Claims up to `limit` due jobs of `kind` (FOR UPDATE SKIP LOCKED: workers never claim one job twice). */
export async function claimJobs(
  sequelize: Sequelize,
  kind: string,
  { limit, leaseMs, spacingMs = 0 }: ClaimOptions,
): Promise<ClaimedJob[]> {
  const rows = await selectRows<ClaimedJob>(sequelize, CLAIM_DUE, [kind, limit, leaseMs, spacingMs]);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The job ran: done (or due again at once, when enqueued again while it ran). */
export async function completeJob(sequelize: Sequelize, job: ClaimedJob): Promise<void> {
  await execute(sequelize, COMPLETE, [job.id, job.claims, job.version]);
}

export interface Failure {
  error: string;
  /** When to try again. */
  retryInMs: number;
  /** Whether this failure counts towards `maxAttempts` (a rate limit's wait does not). */
  counts: boolean;
  /** At this many counted failures the job is dead: kept for an operator, never run by itself again. */
  maxAttempts: number;
}

/** The job's run failed: due again later, or dead. Answers which (null: the claim was no longer held). */
export async function failJob(
  sequelize: Sequelize,
  job: ClaimedJob,
  { error, retryInMs, counts, maxAttempts }: Failure,
): Promise<'queued' | 'dead' | null> {
  const [row] = await selectRows<{ state: 'queued' | 'dead' }>(sequelize, FAIL, [
    job.id,
    job.claims,
    job.version,
    error,
    Math.ceil(retryInMs),
    counts,
    maxAttempts,
  ]);
  return row?.state ?? null;
}

/** Gives back the claimed jobs a stopping worker did not run: due again at once. */
export async function releaseJobs(sequelize: Sequelize, jobs: ClaimedJob[]): Promise<void> {
  if (jobs.length > 0) await execute(sequelize, RELEASE, [jobs.map((job) => job.id)]);
}

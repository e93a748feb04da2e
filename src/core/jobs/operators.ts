import type { Sequelize } from 'sequelize';
import { brokenConstraint, execute, selectRows, type Runner } from '../db/database';
import { AppError } from '../errors';
import { COUNT, COUNT_BY_KIND, LIST, RETRY, SETTLE_DEAD } from './sql';
import type { JobState } from './states';

/** A job as operators see it (`premium jobs list`). */
export interface JobRow {
  id: number;
  kind: string;
  state: JobState;
  payload: Record<string, unknown>;
  /** Failed attempts counted so far. */
  attempts: number;
  /** When it is due; while running, the end of its lease. */
  runAt: Date;
  dedupeKey: string | null;
  lastError: string | null;
  createdAt: Date;
  attemptedAt: Date | null;
  /** When it was done, or given up (dead). */
  finishedAt: Date | null;
}

export interface JobsQuery {
  state?: JobState;
  kind?: string;
  limit: number;
  /** Only jobs older than this id (the next page). */
  before?: number;
  /** Only jobs not done that failed at least once (the dead included). */
  failing?: boolean;
}

const asRow = (row: JobRow): JobRow => ({ ...row, id: Number(row.id) });

/** The latest jobs, newest first, of one state or kind when asked. */
export async function listJobs(
  sequelize: Sequelize,
  { state, kind, limit, before, failing = false }: JobsQuery,
): Promise<JobRow[]> {
  const bind = [state ?? null, kind ?? null, limit, before ?? null, failing];
  const rows = await selectRows<JobRow>(sequelize, LIST, bind);
  return rows.map(asRow);
}

/** Runs a dead (or waiting) job again now, its attempts forgotten; only of `kind` when given. */
export async function retryJob(sequelize: Sequelize, id: number, kind?: string): Promise<JobRow> {
  let rows: JobRow[];
  try {
    rows = await selectRows<JobRow>(sequelize, RETRY, [id, kind ?? null]);
  } catch (error) {
    if (brokenConstraint(error, '23505') === null) throw error;
    throw AppError.conflict('JOB_ALREADY_QUEUED', `job ${id}: another job of its key waits already`);
  }
  if (!rows[0])
    throw AppError.notFound('JOB_NOT_FOUND', `no job ${id} dead or waiting (done, running, or none)`);
  return asRow(rows[0]);
}

/** How many jobs of `kind` wait (due, later or running) and how many are dead (the worker's metrics). */
export async function countJobs(
  sequelize: Sequelize,
  kind: string,
): Promise<{ waiting: number; dead: number }> {
  const [row] = await selectRows<{ waiting: number; dead: number }>(sequelize, COUNT, [kind]);
  return row!;
}

/** For each kind with jobs not done, how many wait and how many are dead (the worker's metrics). */
export function countJobsByKind(
  sequelize: Sequelize,
): Promise<{ kind: string; waiting: number; dead: number }[]> {
  return selectRows(sequelize, COUNT_BY_KIND);
}

/** Marks done the dead jobs of `kind` and `dedupeKeys` whose work was done another way. */
export async function settleDeadJobs(runner: Runner, kind: string, dedupeKeys: string[]): Promise<void> {
  if (dedupeKeys.length > 0) await execute(runner, SETTLE_DEAD, [kind, dedupeKeys]);
}

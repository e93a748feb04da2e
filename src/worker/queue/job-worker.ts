import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import {
  backoffMs,
  claimJobs,
  completeJob,
  failJob,
  releaseJobs,
  type ClaimedJob,
  type JobBackoff,
} from '../../core/jobs';
import type { JobHandler, JobOutcome } from './handler';
import { sleep } from '../sleep';

const DEFAULTS = {
  maxAttempts: 10,
  backoff: { firstMs: 5000, maxMs: 15 * 60_000 } as JobBackoff,
  leaseMs: 120_000,
  spacingMs: 0,
  ready: async () => true,
};
/** Jobs claimed at once by a lane whose kind is not spaced. */
const BATCH = 20;
/** Failures of the database itself, not of one job. */
const DATABASE_BACKOFF: JobBackoff = { firstMs: 1000, maxMs: 30_000 };

export interface JobWorkerOptions {
  sequelize: Sequelize;
  handlers: JobHandler<never>[];
  logger: Logger;
  /** How often a lane looks when nothing of its kind is due. */
  pollMs: number;
}

type Lane = Required<Omit<JobHandler, 'run'>> & Pick<JobHandler, 'run'>;

/**
 * Drains the work queue (docs/jobs.md): one lane per handler, each claiming due jobs of its kind under a
 * lease and running them one after another. A job succeeds, fails (due again after the backoff, dead
 * after `maxAttempts`) or answers its own retry or death; stopping gives back what was not run.
 */
export class JobWorker {
  private readonly stopping = new AbortController();
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: JobWorkerOptions) {}

  start(): void {
    this.running ??= Promise.all(
      this.options.handlers.map((handler) => this.drain({ ...DEFAULTS, ...(handler as JobHandler) })),
    );
  }

  /** Ends the jobs in hand (their handlers see the signal; they come back due) and every lane. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async drain(lane: Lane): Promise<void> {
    const { signal } = this.stopping;
    let databaseFailures = 0;
    while (!signal.aborted) {
      let waitMs: number;
      try {
        waitMs = await this.drainOnce(lane);
        databaseFailures = 0;
      } catch (error) {
        if (signal.aborted) break;
        this.options.logger.error({ err: error, kind: lane.kind }, 'jobs: the database failed; trying again');
        waitMs = backoffMs(++databaseFailures, DATABASE_BACKOFF);
      }
      await sleep(waitMs, signal);
    }
  }

  /** Claims and runs one batch; answers how long to wait before the next. */
  private async drainOnce(lane: Lane): Promise<number> {
    const { sequelize } = this.options;
    const { signal } = this.stopping;
    if (!(await lane.ready())) return this.options.pollMs;
    const claimed = await claimJobs(sequelize, lane.kind, {
      limit: lane.spacingMs > 0 ? 1 : BATCH,
      leaseMs: lane.leaseMs,
      spacingMs: lane.spacingMs,
    });
    if (claimed.length === 0) return this.options.pollMs;
    let pauseMs = 0;
    for (const [index, job] of claimed.entries()) {
      if (signal.aborted) {
        await releaseJobs(sequelize, claimed.slice(index));
        break;
      }
      pauseMs = await this.runOne(lane, job);
    }
    return Math.max(pauseMs, lane.spacingMs);
  }

  /** Runs one job and records how it went; answers how long the lane pauses after it. */
  private async runOne(lane: Lane, job: ClaimedJob): Promise<number> {
    const { sequelize, logger } = this.options;
    const { signal } = this.stopping;
    const backoff = backoffMs(job.attempts + 1, lane.backoff);
    let outcome: JobOutcome | void;
    try {
      outcome = await lane.run(job.payload, {
        id: job.id,
        attempts: job.attempts,
        backoffMs: backoff,
        signal,
      });
    } catch (error) {
      if (signal.aborted) {
        await releaseJobs(sequelize, [job]);
        return 0;
      }
      outcome = { retry: { inMs: backoff, error: (error as Error).message, counts: true } };
    }
    if (outcome === undefined) {
      await completeJob(sequelize, job);
      return 0;
    }
    const failure =
      'dead' in outcome
        ? { error: outcome.dead, retryInMs: 0, counts: true, maxAttempts: 0 }
        : { ...outcome.retry, retryInMs: outcome.retry.inMs, maxAttempts: lane.maxAttempts };
    const state = await failJob(sequelize, job, failure);
    const facts = { job: job.id, kind: job.kind, attempts: job.attempts + 1, error: failure.error };
    if (state === 'dead') logger.error(facts, `job ${job.id} is dead: premium jobs list --state dead`);
    else logger.warn(facts, 'job failed; trying again');
    return 'retry' in outcome ? (outcome.pauseMs ?? 0) : 0;
  }
}

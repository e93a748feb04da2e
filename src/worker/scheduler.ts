import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import {
  schedule,
  validate,
  type Logger as CronLogger,
  type ScheduledTask,
  type TaskContext,
} from 'node-cron';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';
import type { Core } from '../core';
import { claimTick, finishTick } from './job-runs';
import type { JobDefinition, ScheduledJob } from './jobs/job';

export type RunResult = 'ran' | 'skipped';

/**
 * How long a stop waits for runs in progress, within the worker's 10 s for a SIGTERM. A run cut short
 * loses nothing: each of its transactions commits or rolls back whole, and its job runs again at the
 * next tick once the run's lease has run out.
 */
const RUN_GRACE_MS = 5000;
/** A run's time when its job names none: the jobs that only write to the database take seconds. */
const DEFAULT_MAX_RUN_MS = 60_000;
/** Beyond the run's deadline, for the calls in flight then (PROVIDER_TIMEOUT_MS) to end. */
const LEASE_MARGIN_MS = 60_000;

/** This process's name in `job_runs.worker`, unique per scheduler. */
export function workerName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Runs `job` for `tick` unless another worker claimed that tick, or is still running the job (see
 * `claimTick`), so that any number of worker replicas run each scheduled tick once and never two runs
 * at a time. No transaction stays open across the run: the claim and the finish are short ones.
 */
export async function runExclusively(
  core: Core,
  job: JobDefinition,
  logger: Logger,
  {
    tick = new Date(),
    worker = workerName(),
    stopping,
  }: { tick?: Date; worker?: string; stopping?: AbortSignal } = {},
): Promise<RunResult> {
  const maxRunMs = job.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  const run = { job: job.name, tick };
  const claimed = await claimTick(core.sequelize, { ...run, worker, leaseMs: maxRunMs + LEASE_MARGIN_MS });
  if (!claimed) return 'skipped';
  try {
    const deadline = AbortSignal.timeout(maxRunMs);
    await job.run({ core, logger, signal: stopping ? AbortSignal.any([deadline, stopping]) : deadline });
  } catch (error) {
    await finishTick(core.sequelize, run, 'failed');
    throw error;
  }
  await finishTick(core.sequelize, run, 'ran');
  return 'ran';
}

export interface SchedulerOptions {
  core: Core;
  jobs: ScheduledJob[];
  logger: Logger;
  /** Where the job-run counter goes; a registry of its own when absent. */
  registry?: Registry;
}

/** Runs each job on its cron schedule (node-cron, no overlap within a process), once per tick across workers. */
export class Scheduler {
  private readonly worker = workerName();
  private readonly stopping = new AbortController();
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly runs: Counter<'job' | 'result'>;

  /** Throws on an invalid cron expression, naming every job that has one. */
  constructor(private readonly options: SchedulerOptions) {
    const invalid = options.jobs.filter((job) => !validate(job.schedule));
    if (invalid.length > 0) {
      throw new Error(
        `invalid cron expression: ${invalid.map((job) => `${job.name}="${job.schedule}"`).join(', ')}`,
      );
    }
    this.runs = new Counter({
      name: 'premium_worker_job_runs_total',
      help: 'Scheduled job runs by result: ran, skipped (another worker took the tick or runs the job) or failed',
      labelNames: ['job', 'result'],
      registers: [options.registry ?? new Registry()],
    });
  }

  start(): void {
    const logger = cronLogger(this.options.logger);
    for (const job of this.options.jobs) {
      this.tasks.push(
        schedule(job.schedule, (context) => this.track(job, scheduledTick(context)), {
          name: job.name,
          noOverlap: true,
          logger,
        }),
      );
    }
  }

  /** Stops scheduling, tells the runs in progress to wrap up, and waits for them for up to RUN_GRACE_MS. */
  async stop(): Promise<void> {
    await Promise.all(this.tasks.splice(0).map(async (task) => task.destroy()));
    this.stopping.abort();
    await Promise.race([Promise.all(this.running), delay(RUN_GRACE_MS, undefined, { ref: false })]);
  }

  private track(job: ScheduledJob, tick: Date): Promise<void> {
    const run = this.runOnce(job, tick).finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  private async runOnce(job: ScheduledJob, tick: Date): Promise<void> {
    const logger = this.options.logger.child({ job: job.name, tick });
    try {
      const result = await runExclusively(this.options.core, job, logger, {
        tick,
        worker: this.worker,
        stopping: this.stopping.signal,
      });
      this.runs.inc({ job: job.name, result });
    } catch (error) {
      this.runs.inc({ job: job.name, result: 'failed' });
      logger.error({ err: error }, 'scheduled job failed');
    }
  }
}

/**
 * The time the tick was scheduled for, to the second: every worker computes the same one for the same
 * tick, whenever its timer actually fired.
 */
function scheduledTick(context: TaskContext): Date {
  return new Date(Math.floor(context.date.getTime() / 1000) * 1000);
}

/** node-cron's own warnings (a missed or blocked tick) go to the worker's log. */
function cronLogger(logger: Logger): CronLogger {
  const log = (level: 'info' | 'warn' | 'error' | 'debug') => (message: string | Error, error?: Error) =>
    logger[level](
      { err: error ?? (message instanceof Error ? message : undefined) },
      `node-cron: ${message}`,
    );
  return { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };
}

import { setTimeout as delay } from 'node:timers/promises';
import { schedule, validate, type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import { Counter, Registry } from 'prom-client';
import type { Core } from '../core';
import { selectRows } from '../core/db/database';
import type { JobDefinition, ScheduledJob } from './jobs/job';

export type RunResult = 'ran' | 'skipped';

/**
 * How long a stop waits for runs in progress, within the worker's 10 s for a SIGTERM. A run cut short
 * loses nothing: its transaction rolls back with the process, and its job runs again at the next tick.
 */
const RUN_GRACE_MS = 5000;

/**
 * Runs `job` once unless another worker is running it right now: the run holds a transaction-scoped
 * advisory lock named after the job, so any number of worker replicas run it once per tick.
 */
export function runExclusively(core: Core, job: JobDefinition, logger: Logger): Promise<RunResult> {
  return core.sequelize.transaction(async (transaction) => {
    const [lock] = await selectRows<{ locked: boolean }>(
      transaction,
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
      [`premium-worker:job:${job.name}`],
    );
    if (!lock?.locked) return 'skipped';
    await job.run({ core, transaction, logger });
    return 'ran';
  });
}

export interface SchedulerOptions {
  core: Core;
  jobs: ScheduledJob[];
  logger: Logger;
  /** Where the job-run counter goes; a registry of its own when absent. */
  registry?: Registry;
}

/** Runs each job on its cron schedule (node-cron, no overlap within a process) under its advisory lock. */
export class Scheduler {
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
      help: 'Scheduled job runs by result: ran, skipped (another worker held its lock) or failed',
      labelNames: ['job', 'result'],
      registers: [options.registry ?? new Registry()],
    });
  }

  start(): void {
    const logger = cronLogger(this.options.logger);
    for (const job of this.options.jobs) {
      this.tasks.push(
        schedule(job.schedule, () => this.track(job), { name: job.name, noOverlap: true, logger }),
      );
    }
  }

  /** Stops scheduling and waits for the runs in progress, for up to RUN_GRACE_MS. */
  async stop(): Promise<void> {
    await Promise.all(this.tasks.splice(0).map((task) => task.destroy()));
    await Promise.race([Promise.all(this.running), delay(RUN_GRACE_MS, undefined, { ref: false })]);
  }

  private track(job: ScheduledJob): Promise<void> {
    const run = this.runOnce(job).finally(() => this.running.delete(run));
    this.running.add(run);
    return run;
  }

  private async runOnce(job: ScheduledJob): Promise<void> {
    const logger = this.options.logger.child({ job: job.name });
    try {
      const result = await runExclusively(this.options.core, job, logger);
      this.runs.inc({ job: job.name, result });
    } catch (error) {
      this.runs.inc({ job: job.name, result: 'failed' });
      logger.error({ err: error }, 'scheduled job failed');
    }
  }
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

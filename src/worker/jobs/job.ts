import type { Logger } from 'pino';
import type { Core } from '../../core';
import type { Config } from '../../core/config';

export interface JobContext {
  core: Core;
  logger: Logger;
  /**
   * Aborts at the run's deadline (`maxRunMs`) or when the worker stops: the job then starts no new work
   * (what is left waits for the next tick). No transaction is open around `run`: a job opens short
   * ones, and never keeps one open across a call to another service.
   */
  signal: AbortSignal;
}

/** A job, named after its schedule in `config.schedules`. */
export interface JobDefinition {
  name: keyof Config['schedules'];
  /** How long a run may take (its deadline); other workers leave the job alone meanwhile. 60 s by default. */
  maxRunMs?: number;
  run(context: JobContext): Promise<void>;
}

export interface ScheduledJob extends JobDefinition {
  /** A node-cron expression (five fields, or six with seconds). */
  schedule: string;
}

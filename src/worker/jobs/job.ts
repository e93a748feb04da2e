import type { Logger } from 'pino';
import type { Transaction } from 'sequelize';
import type { Core } from '../../core';
import type { Config } from '../../core/config';

export interface JobContext {
  core: Core;
  /**
   * The transaction holding the job's advisory lock: what the job writes in it commits with the run. A
   * job that calls other services may use transactions of its own; the lock holds until `run` returns.
   */
  transaction: Transaction;
  logger: Logger;
}

/** A job, named after its schedule in `config.schedules`. */
export interface JobDefinition {
  name: keyof Config['schedules'];
  run(context: JobContext): Promise<void>;
}

export interface ScheduledJob extends JobDefinition {
  /** A node-cron expression (five fields, or six with seconds). */
  schedule: string;
}

import type { JobBackoff } from '../../core/jobs';

export interface JobRun {
  id: number;
  /** Failed attempts before this one. */
  attempts: number;
  /** The wait the queue's backoff would give this run's failure. */
  backoffMs: number;
  /** Aborts when the worker stops: the job is then given back, due again at once. */
  signal: AbortSignal;
}

/**
 * What a run answers besides success (undefined) and a thrown error (retried after the backoff, dead
 * after `maxAttempts`): try again after a wait of the handler's choosing, counted or not, or give up now.
 */
export type JobOutcome =
  | {
      retry: { inMs: number; error: string; counts: boolean };
      /** This lane waits so long before its next job (a limit shared by every job of the kind). */
      pauseMs?: number;
    }
  | { dead: string };

/** How one kind of job is run. */
export interface JobHandler<Payload = Record<string, unknown>> {
  kind: string;
  run(payload: Payload, run: JobRun): Promise<JobOutcome | void>;
  /** Counted failures after which a job is dead (10 by default). */
  maxAttempts?: number;
  backoff?: JobBackoff;
  /** Longer than a run can take (2 minutes by default). */
  leaseMs?: number;
  /** At most one job of the kind started per this many ms, across workers. */
  spacingMs?: number;
  /**
   * Whether the kind can run now (say, its setting is set): while it answers false the lane claims
   * nothing, and its jobs wait. Asked before each claim, so it must be cheap (a cached read).
   */
  ready?(): Promise<boolean>;
}

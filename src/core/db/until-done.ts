import type { Sequelize, Transaction } from 'sequelize';

/**
 * Runs `batch` again and again, each time in a short transaction of its own, until a batch does nothing
 * (returns 0) or `signal` aborts; returns the sum of what the batches returned. For jobs that must get
 * through a backlog in one run without holding locks or a transaction for its whole length.
 */
export async function untilDone(
  sequelize: Sequelize,
  signal: AbortSignal | undefined,
  batch: (transaction: Transaction) => Promise<number>,
): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const done = await sequelize.transaction(batch);
    if (done === 0) break;
    total += done;
  }
  return total;
}

/** How a batch's size follows its duration (`BatchSize`). */
export interface BatchSizing {
  /** The limit of the first batch. */
  initial: number;
  min: number;
  max: number;
  /**
   * What one batch's transaction (first statement to COMMIT's answer) should take: over it, the next
   * batch is half as large; under half of it, with the batch full, the next is twice as large.
   */
  targetMs: number;
}

/** One batch as `untilDoneSized` ran it: its limit, what it did, and how long its transaction took. */
export interface SizedBatch {
  limit: number;
  done: number;
  ms: number;
}

/**
 * A batch limit sized by time, not count: it halves after a batch that took longer than `targetMs` and
 * doubles after a full one that took less than half of it, between `min` and `max`. A job keeps one for
 * the life of its process, so a run starts at the size the last one ended with (the load of the machine
 * and of the database changes slowly next to a minute's schedule).
 */
export class BatchSize {
  private current: number;

  constructor(readonly sizing: BatchSizing) {
    this.current = Math.min(sizing.max, Math.max(sizing.min, sizing.initial));
  }

  get limit(): number {
    return this.current;
  }

  /** Learns from a batch of `limit` that did `done` (a full batch did at least its limit) in `ms`. */
  observe({ limit, done, ms }: SizedBatch): void {
    const { min, max, targetMs } = this.sizing;
    if (ms > targetMs) this.current = Math.max(min, Math.floor(limit / 2));
    else if (ms < targetMs / 2 && done >= limit) this.current = Math.min(max, limit * 2);
  }
}

/**
 * `untilDone` with each batch's limit taken from `size` and the batch's duration fed back to it, so
 * that under load a batch stays short (its locks are held for one transaction) and on a quiet machine a
 * backlog goes in few transactions. `onBatch` sees each batch once it committed.
 */
export async function untilDoneSized(
  sequelize: Sequelize,
  signal: AbortSignal | undefined,
  size: BatchSize,
  batch: (transaction: Transaction, limit: number) => Promise<number>,
  onBatch?: (batch: SizedBatch) => void,
): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const limit = size.limit;
    const started = performance.now();
    const done = await sequelize.transaction((transaction) => batch(transaction, limit));
    const sized = { limit, done, ms: performance.now() - started };
    size.observe(sized);
    onBatch?.(sized);
    if (done === 0) break;
    total += done;
  }
  return total;
}

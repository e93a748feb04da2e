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

import type { Sequelize } from 'sequelize';
import { takeAdvisoryLock } from '../core/db/advisory-locks';
import { execute, selectRows } from '../core/db/database';
import { CLAIM_TICK, FINISH_TICK } from './sql';

/**
 * Claims `tick` of `job` for `worker` in one short transaction: true when this worker is to run it,
 * false when another worker claimed that tick already or still runs the job within its lease. The
 * transaction-scoped advisory lock (which PgBouncer's transaction mode keeps) only orders concurrent
 * claims of the same job; the row is what holds the job during the run, with no transaction open.
 */
export async function claimTick(
  sequelize: Sequelize,
  claim: { job: string; tick: Date; worker: string; leaseMs: number },
): Promise<boolean> {
  return sequelize.transaction(async (transaction) => {
    await takeAdvisoryLock(transaction, 'jobs', `premium-worker:job:${claim.job}`);
    const claimed = await selectRows(transaction, CLAIM_TICK, [
      claim.job,
      claim.tick,
      claim.worker,
      claim.leaseMs,
    ]);
    return claimed.length === 1;
  });
}

/** Marks a claimed tick finished, which frees the job for the next tick before its lease runs out. */
export async function finishTick(
  sequelize: Sequelize,
  run: { job: string; tick: Date },
  outcome: 'ran' | 'failed',
): Promise<void> {
  await execute(sequelize, FINISH_TICK, [run.job, run.tick, outcome]);
}

import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../core/db/database';

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
    await execute(transaction, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `premium-worker:job:${claim.job}`,
    ]);
    const claimed = await selectRows(
      transaction,
      `INSERT INTO job_runs (job, tick, worker, lease_until)
       SELECT $1, $2, $3, now() + $4 * interval '1 millisecond'
       WHERE NOT EXISTS (
         SELECT 1 FROM job_runs WHERE job = $1 AND finished_at IS NULL AND lease_until > now())
       ON CONFLICT (job, tick) DO NOTHING
       RETURNING 1`,
      [claim.job, claim.tick, claim.worker, claim.leaseMs],
    );
    return claimed.length === 1;
  });
}

/** Marks a claimed tick finished, which frees the job for the next tick before its lease runs out. */
export async function finishTick(
  sequelize: Sequelize,
  run: { job: string; tick: Date },
  outcome: 'ran' | 'failed',
): Promise<void> {
  await sequelize.query(
    'UPDATE job_runs SET finished_at = now(), outcome = $3 WHERE job = $1 AND tick = $2',
    { bind: [run.job, run.tick, outcome] },
  );
}

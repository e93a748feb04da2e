import type { Migration } from '../src/core/db/migrator';
import { createIndexConcurrently, dropIndexConcurrently } from '../src/core/db/online-migration';

/**
 * Housekeeping deletes job runs older than their retention by `tick`, the second column of the key:
 * without an index of its own that was a scan of every run kept (a month of ticks), even with nothing
 * to delete (docs/performance.md). Built CONCURRENTLY (docs/migrations.md).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await createIndexConcurrently(sequelize, 'job_runs_tick', 'ON job_runs (tick)');
};

export const down: Migration = async ({ context: sequelize }) => {
  await dropIndexConcurrently(sequelize, 'job_runs_tick');
};

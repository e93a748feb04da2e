import type { Migration } from '../src/core/db/migrator';
import { createIndexConcurrently, dropIndexConcurrently } from '../src/core/db/online-migration';

/**
 * Housekeeping deletes failed code attempts older than a day by `created_at`, which both indexes of the
 * table hold second only: without an index of its own that was a scan of every attempt kept, even with
 * nothing to delete (17 pages at 1M users, 1 at 10k; docs/performance.md). Built CONCURRENTLY
 * (docs/migrations.md).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await createIndexConcurrently(
    sequelize,
    'code_attempt_failures_created_at',
    'ON code_attempt_failures (created_at)',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await dropIndexConcurrently(sequelize, 'code_attempt_failures_created_at');
};

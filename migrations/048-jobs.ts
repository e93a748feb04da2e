import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, createIndexConcurrently } from '../src/core/db/online-migration';

/**
 * The work queue (docs/jobs.md): one row per job of any kind, enqueued in the transaction of the change
 * it follows. `state` is queued, running (claimed: `run_at` is then the end of its lease, past which
 * another worker takes it again), done or dead. `claims` counts the claims, so that only the worker
 * holding the latest claim finishes the job; `version` grows when a job of the same `dedupe_key` is
 * enqueued again while it waits or runs, so that a run that read older facts leaves it due again. At
 * most one job per kind and dedupe key waits or runs at a time. The indexes: due jobs by kind, the last
 * claim of a kind (the pace), jobs not done (the counts) and finished ones (housekeeping). A new table:
 * nothing live is locked.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS jobs (
       id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       kind          text NOT NULL,
       payload       jsonb NOT NULL DEFAULT '{}',
       state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'dead')),
       attempts      integer NOT NULL DEFAULT 0,
       run_at        timestamptz NOT NULL DEFAULT now(),
       claims        integer NOT NULL DEFAULT 0,
       version       integer NOT NULL DEFAULT 0,
       dedupe_key    text,
       last_error    text,
       created_at    timestamptz NOT NULL DEFAULT now(),
       attempted_at  timestamptz,
       finished_at   timestamptz
     )`,
  );
  await createIndexConcurrently(
    sequelize,
    'jobs_dedupe',
    `ON jobs (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running')`,
    { unique: true },
  );
  await createIndexConcurrently(
    sequelize,
    'jobs_due',
    `ON jobs (kind, run_at, id) WHERE state IN ('queued', 'running')`,
  );
  await createIndexConcurrently(
    sequelize,
    'jobs_attempted',
    'ON jobs (kind, attempted_at) WHERE attempted_at IS NOT NULL',
  );
  await createIndexConcurrently(sequelize, 'jobs_unfinished', `ON jobs (kind, state) WHERE state <> 'done'`);
  await createIndexConcurrently(
    sequelize,
    'jobs_finished',
    'ON jobs (finished_at) WHERE finished_at IS NOT NULL',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE IF EXISTS jobs');
};

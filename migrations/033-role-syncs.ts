import type { Migration } from '../src/core/db/migrator';

/**
 * Discord roles that follow premium (docs/roles.md). `role_syncs` is the queue of users whose roles must
 * be brought in line with their running tier: one row per user (repeated changes coalesce), written by
 * the relay in the transaction that settles their USER events, deleted once Discord agreed. `queued_at`
 * tells a change that arrived during a sync from the one the sync read; `due_at` is also the lease of a
 * row being synced; `skipped_at` marks a user who is not a member of the guild (the drift sync or
 * `premium roles sync --user` takes them up once they join). `role_sync_runs` keeps each drift sync's
 * outcome for `premium roles status`. Both tables are new: nothing else is locked.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE role_syncs (
      user_id     bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      queued_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
      due_at      timestamptz NOT NULL DEFAULT now(),
      attempts    integer NOT NULL DEFAULT 0,
      last_error  text,
      skipped_at  timestamptz
    );
    CREATE INDEX role_syncs_due ON role_syncs (due_at) WHERE skipped_at IS NULL;
    CREATE TABLE role_sync_runs (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      started_at   timestamptz NOT NULL,
      finished_at  timestamptz NOT NULL DEFAULT now(),
      outcome      text NOT NULL CHECK (outcome IN ('synced', 'stopped-at-guard', 'failed')),
      result       jsonb NOT NULL CHECK (jsonb_typeof(result) = 'object')
    );
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE role_sync_runs; DROP TABLE role_syncs');
};

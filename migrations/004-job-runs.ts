import type { Migration } from '../src/core/db/migrator';

/**
 * `job_runs`: one row per scheduled job and tick, inserted by the worker that runs it, so that a tick
 * runs once however many workers there are; an unfinished row whose lease has not run out keeps other
 * workers from starting the job meanwhile. It replaces the advisory lock held by a transaction open for
 * the whole run (which held back vacuum while the reconcile job waited on Razorpay), and works through
 * PgBouncer in transaction mode, where session locks do not.
 *
 * `orders.refund_checked_at`: when the reconcile job last asked Razorpay whether a paid order's payment
 * was refunded (its safety net for refund webhooks that never arrived).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE job_runs (
      job         text NOT NULL,
      tick        timestamptz NOT NULL,
      worker      text NOT NULL,
      started_at  timestamptz NOT NULL DEFAULT now(),
      lease_until timestamptz NOT NULL,
      finished_at timestamptz,
      outcome     text CHECK (outcome IN ('ran', 'failed')),
      PRIMARY KEY (job, tick),
      CHECK ((finished_at IS NULL) = (outcome IS NULL))
    );
    CREATE INDEX job_runs_unfinished ON job_runs (job, lease_until) WHERE finished_at IS NULL;

    ALTER TABLE orders ADD COLUMN refund_checked_at timestamptz;
    CREATE INDEX orders_paid_at ON orders (paid_at) WHERE status = 'paid';
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP INDEX orders_paid_at;
    ALTER TABLE orders DROP COLUMN refund_checked_at;
    DROP TABLE job_runs;
  `);
};

import { QueryTypes } from 'sequelize';
import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

/**
 * The seller's notices and the role syncs move into the work queue (docs/jobs.md), online. For each old
 * table, first a trigger turns every insert into it (the old code's, while it still runs beside the new)
 * into a job, so nothing is written where no worker reads any more; then the rows already there move,
 * one short transaction per batch, each keeping its state (a notice sent: done; given up, or a user set
 * aside as no member: dead), tries, last error and due time. A notice or sync an old worker is running
 * while its row moves may run twice: both were always at least once. The emptied tables and their
 * triggers go in a later migration, once no running version names them.
 */
const NOTICE_AS_JOB = `'seller_notice', n.payload || jsonb_build_object('kind', n.kind)`;
const SYNC_AS_JOB = `'role_sync', jsonb_build_object('providerId', u.provider_id), u.provider_id`;
const ON_WAITING_KEY = `ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running')`;
const SYNCS_PER_BATCH = 5_000;

export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `CREATE OR REPLACE FUNCTION seller_notice_into_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO jobs (kind, payload) SELECT ${NOTICE_AS_JOB} FROM (SELECT NEW.*) n;
       RETURN NULL;
     END $$;
     DROP TRIGGER IF EXISTS seller_notices_into_jobs ON seller_notices;
     CREATE TRIGGER seller_notices_into_jobs BEFORE INSERT ON seller_notices
       FOR EACH ROW EXECUTE FUNCTION seller_notice_into_jobs();
     CREATE OR REPLACE FUNCTION role_sync_into_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO jobs (kind, payload, dedupe_key) SELECT ${SYNC_AS_JOB} FROM users u WHERE u.id = NEW.user_id
         ${ON_WAITING_KEY} DO UPDATE SET version = jobs.version + 1;
       RETURN NULL;
     END $$;
     DROP TRIGGER IF EXISTS role_syncs_into_jobs ON role_syncs;
     CREATE TRIGGER role_syncs_into_jobs BEFORE INSERT ON role_syncs
       FOR EACH ROW EXECUTE FUNCTION role_sync_into_jobs()`,
  );
  await backfillInBatches(
    sequelize,
    'seller_notices',
    `WITH moved AS (DELETE FROM seller_notices WHERE id BETWEEN $1 AND $2 RETURNING *)
     INSERT INTO jobs (kind, payload, state, attempts, run_at, last_error, created_at, attempted_at, finished_at)
     SELECT ${NOTICE_AS_JOB},
            CASE WHEN n.sent_at IS NOT NULL THEN 'done' WHEN n.dead_at IS NOT NULL THEN 'dead' ELSE 'queued' END,
            n.attempts, n.due_at, n.last_error, n.created_at, n.attempted_at, COALESCE(n.sent_at, n.dead_at)
     FROM moved n ORDER BY n.id`,
  );
  // role_syncs is keyed by user, not by an id: a batch is the first rows found, until none is left.
  for (;;) {
    const [batch] = await sequelize.query<{ moved: number }>(
      `WITH moved AS (
         DELETE FROM role_syncs WHERE user_id IN (SELECT user_id FROM role_syncs LIMIT ${SYNCS_PER_BATCH})
         RETURNING *),
       queued AS (
         INSERT INTO jobs (kind, payload, dedupe_key, state, attempts, run_at, last_error, finished_at)
         SELECT ${SYNC_AS_JOB}, CASE WHEN r.skipped_at IS NULL THEN 'queued' ELSE 'dead' END,
                r.attempts, r.due_at, r.last_error, r.skipped_at
         FROM moved r JOIN users u ON u.id = r.user_id
         ${ON_WAITING_KEY} DO UPDATE SET version = jobs.version + 1)
       SELECT count(*)::int AS moved FROM moved`,
      { type: QueryTypes.SELECT },
    );
    if (batch!.moved === 0) break;
  }
};

/** Back to the old code: the notices and syncs still waiting go back to their tables (finished ones stay). */
export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`DROP TRIGGER IF EXISTS seller_notices_into_jobs ON seller_notices;
    DROP FUNCTION IF EXISTS seller_notice_into_jobs();
    DROP TRIGGER IF EXISTS role_syncs_into_jobs ON role_syncs;
    DROP FUNCTION IF EXISTS role_sync_into_jobs()`);
  await sequelize.query(`WITH moved AS (DELETE FROM jobs WHERE kind = 'seller_notice' AND state IN ('queued', 'running')
      RETURNING *)
    INSERT INTO seller_notices (kind, payload, created_at, due_at, attempts, attempted_at, last_error)
    SELECT payload->>'kind', payload - 'kind', created_at, run_at, attempts, attempted_at, last_error
    FROM moved ORDER BY id`);
  await sequelize.query(`WITH moved AS (DELETE FROM jobs WHERE kind = 'role_sync' AND state <> 'done' RETURNING *)
    INSERT INTO role_syncs (user_id, due_at, attempts, last_error, skipped_at)
    SELECT u.id, j.run_at, j.attempts, j.last_error, CASE WHEN j.state = 'dead' THEN j.finished_at END
    FROM moved j JOIN users u ON u.provider_id = j.dedupe_key
    ON CONFLICT (user_id) DO NOTHING`);
};

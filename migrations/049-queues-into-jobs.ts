import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

/**
 * The seller's notices move into the work queue (docs/jobs.md), online. First a trigger turns every
 * insert into `seller_notices` (the old code's, while it still runs beside the new) into a job, so no
 * notice is written where no worker reads any more; then the rows already there move, a range of ids
 * per short transaction, each keeping its state (sent: done, given up: dead), tries, last error and due
 * time. A notice an old worker is sending while its row moves may be sent twice: notices were always
 * at least once. The emptied table and the trigger go in a later migration, once no running version
 * names them.
 */
const NOTICE_AS_JOB = `'seller_notice', n.payload || jsonb_build_object('kind', n.kind)`;

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
       FOR EACH ROW EXECUTE FUNCTION seller_notice_into_jobs()`,
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
};

/** Back to the old code: the notices still waiting go back to their table (sent and dead ones stay). */
export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`DROP TRIGGER IF EXISTS seller_notices_into_jobs ON seller_notices;
    DROP FUNCTION IF EXISTS seller_notice_into_jobs()`);
  await sequelize.query(`WITH moved AS (DELETE FROM jobs WHERE kind = 'seller_notice' AND state IN ('queued', 'running')
      RETURNING *)
    INSERT INTO seller_notices (kind, payload, created_at, due_at, attempts, attempted_at, last_error)
    SELECT payload->>'kind', payload - 'kind', created_at, run_at, attempts, attempted_at, last_error
    FROM moved ORDER BY id`);
};

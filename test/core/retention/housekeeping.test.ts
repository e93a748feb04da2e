import { QueryTypes } from 'sequelize';
import { removeExpiredBookkeeping } from '../../../src/core/retention';
import {
  deleteCodeAttemptFailuresBefore,
  deleteDeadOutboxRowsBefore,
  deleteFinishedJobsBefore,
  deleteJobRunsBefore,
  deleteWebhookAttemptsBefore,
  deleteWebhookDeliveriesBefore,
  deleteWebhookIdsBefore,
} from '../../../src/core/retention/sql';
import { useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';
import { indexesRead } from '../../support/plans';

describe('housekeeping', () => {
  const core = useTestCore();

  it('removes the failed code attempts past a day and keeps the rest', async () => {
    const user = await createUser();
    await core().sequelize.query(
      `INSERT INTO code_attempt_failures (user_id, ip, created_at)
       VALUES ($1, '10.0.0.1', now() - interval '25 hours'), ($1, '10.0.0.1', now() - interval '23 hours')`,
      { bind: [user.id] },
    );
    const removed = await core().sequelize.transaction((transaction) =>
      removeExpiredBookkeeping(transaction, { idleKinds: [] }),
    );
    expect(removed.codeAttemptFailures).toBe(1);
    const [left] = await core().sequelize.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM code_attempt_failures',
      { type: QueryTypes.SELECT },
    );
    expect(left!.count).toBe(1);
  });

  it('removes the buyer messages waiting past a day only while nothing sends them (no DISCORD_BOT_TOKEN)', async () => {
    await core().sequelize.query(
      `INSERT INTO jobs (kind, payload, created_at) VALUES
         ('buyer_message', '{}', now() - interval '25 hours'), ('buyer_message', '{}', now() - interval '23 hours')`,
    );
    const remove = (idleKinds: string[]) =>
      core().sequelize.transaction((transaction) => removeExpiredBookkeeping(transaction, { idleKinds }));

    expect((await remove(['seller_notice'])).unsentJobs).toBe(0);
    expect((await remove(['buyer_message'])).unsentJobs).toBe(1);
    const [left] = await core().sequelize.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM jobs WHERE kind = 'buyer_message'",
      { type: QueryTypes.SELECT },
    );
    expect(left!.count).toBe(1);
  });

  // With nothing due, each delete is one probe of an index led by its time, whatever the table holds
  // (docs/performance.md); an index with the time second is read whole.
  it.each([
    ['webhook ids', deleteWebhookIdsBefore('7 days'), 'webhook_events_received_at'],
    ['dead outbox rows', deleteDeadOutboxRowsBefore('30 days'), 'outbox_dead'],
    ['job runs', deleteJobRunsBefore('30 days'), 'job_runs_tick'],
    ['failed code attempts', deleteCodeAttemptFailuresBefore('1 day'), 'code_attempt_failures_created_at'],
    ['finished jobs', deleteFinishedJobsBefore('30 days'), 'jobs_finished'],
    ['webhook attempts', deleteWebhookAttemptsBefore('30 days'), 'webhook_attempts_by_time'],
    ['webhook deliveries', deleteWebhookDeliveriesBefore('30 days'), 'webhook_deliveries_by_time'],
  ])('finds the %s past retention through an index of their time', async (_kind, statement, index) => {
    expect(await indexesRead(core().sequelize, statement)).toEqual([index]);
  });
});

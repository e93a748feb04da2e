import pino from 'pino';
import { Registry } from 'prom-client';
import { QueryTypes } from 'sequelize';
import type { Core } from '../../src/core';
import { OutboxEvent } from '../../src/core/models';
import { expiryJob } from '../../src/worker/jobs/expiry';
import { housekeepingJob } from '../../src/worker/jobs/housekeeping';
import { runExclusively, Scheduler } from '../../src/worker/scheduler';
import { useTestCore } from '../support/context';
import { createUser, grantMonth } from './support/outbox';
import { pollUntil } from '../support/wait';

const logger = pino({ level: 'silent' });

describe('scheduler', () => {
  const core = useTestCore();

  it('skips a job while another worker runs it', async () => {
    await core().sequelize.transaction(async (transaction) => {
      await core().sequelize.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('premium-worker:job:expiry', 0))`,
        {
          transaction,
        },
      );
      expect(await runExclusively(core(), expiryJob, logger)).toBe('skipped');
    });
    expect(await runExclusively(core(), expiryJob, logger)).toBe('ran');
  });

  it('announces each expiry once across two workers running the job every second', async () => {
    const { sequelize } = core();
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser()));
    for (const user of users) await grantMonth(sequelize, user.providerId);
    await sequelize.query(`UPDATE user_premiums SET expires_at = now() - interval '1 minute'`);

    const workers = [startScheduler(core()), startScheduler(core())];
    try {
      await pollUntil('each worker to have run the job three times', async () => {
        const runs = await Promise.all(workers.map((worker) => completedRuns(worker.registry)));
        return runs.every((count) => count >= 3);
      });
    } finally {
      await Promise.all(workers.map((worker) => worker.scheduler.stop()));
    }
    const announced = (await OutboxEvent.findAll()).filter((row) => row.payload.source === 'expiry');
    expect(announced.map((row) => row.payload.providerId).sort()).toEqual(
      users.map((user) => user.providerId).sort(),
    );
  });

  it('housekeeping removes webhook ids after 7 days and dead outbox rows after 30, nothing else', async () => {
    const { sequelize } = core();
    await sequelize.query(`
      INSERT INTO webhook_events (event_id, event_type, received_at) VALUES
        ('old', 'payment.captured', now() - interval '8 days'),
        ('recent', 'payment.captured', now() - interval '6 days');
      INSERT INTO outbox (event_id, type, aggregate_key, payload, created_at, dead_at)
      SELECT gen_random_uuid(), 'USER_PREMIUM_ADD', label, '{}', now() - interval '40 days', dead_at
      FROM (VALUES ('dead long ago', now() - interval '31 days'),
                   ('dead lately', now() - interval '29 days'),
                   ('pending', NULL::timestamptz)) AS rows (label, dead_at);
    `);

    expect(await runExclusively(core(), housekeepingJob, logger)).toBe('ran');

    const webhooks = await sequelize.query<{ event_id: string }>('SELECT event_id FROM webhook_events', {
      type: QueryTypes.SELECT,
    });
    expect(webhooks.map((row) => row.event_id)).toEqual(['recent']);
    const outbox = await OutboxEvent.findAll({ order: [['aggregateKey', 'ASC']] });
    expect(outbox.map((row) => row.aggregateKey)).toEqual(['dead lately', 'pending']);
  });
});

/**
 * A worker's scheduler running the expiry job every second. Each run takes a pooled connection of its
 * own, and the advisory lock belongs to that connection's transaction, as it would in another process.
 */
function startScheduler(core: Core): { scheduler: Scheduler; registry: Registry } {
  const registry = new Registry();
  const scheduler = new Scheduler({
    core,
    jobs: [{ ...expiryJob, schedule: '* * * * * *' }],
    logger,
    registry,
  });
  scheduler.start();
  return { scheduler, registry };
}

/** Runs that finished, whether this worker did the work or found another worker doing it. */
async function completedRuns(registry: Registry): Promise<number> {
  const values = (await registry.getSingleMetric('premium_worker_job_runs_total')?.get())?.values ?? [];
  return values
    .filter((value) => value.labels.result !== 'failed')
    .reduce((sum, value) => sum + value.value, 0);
}

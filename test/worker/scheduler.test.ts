import pino from 'pino';
import { Registry } from 'prom-client';
import { QueryTypes } from 'sequelize';
import type { Core } from '../../src/core';
import type { ScheduledJob } from '../../src/worker/jobs/job';
import { OutboxEvent } from '../../src/core/models';
import { expiryJob } from '../../src/worker/jobs/expiry';
import { housekeepingJob } from '../../src/worker/jobs/housekeeping';
import { runExclusively, Scheduler } from '../../src/worker/scheduler';
import { useTestCore } from '../support/context';
import { createUser, grantMonth } from '../support/outbox-stream';
import { pollUntil } from '../support/wait';

const logger = pino({ level: 'silent' });

describe('scheduler', () => {
  const core = useTestCore();

  it('runs a tick once, and not while another worker runs the job within its lease', async () => {
    const tick = new Date('2026-01-01T00:05:00Z');
    const run = (worker: string, at = tick) =>
      runExclusively(core(), expiryJob, logger, { tick: at, worker });
    expect(await run('a')).toBe('ran');
    expect(await run('b')).toBe('skipped');

    const next = new Date('2026-01-01T00:06:00Z');
    await core().sequelize.query(
      `INSERT INTO job_runs (job, tick, worker, lease_until) VALUES ('expiry', $1, 'c', now() + interval '1 minute')`,
      { bind: [next] },
    );
    expect(await run('a', new Date('2026-01-01T00:07:00Z'))).toBe('skipped');
    // Worker c died mid-run: once its lease has run out, the job runs again.
    await core().sequelize.query(`UPDATE job_runs SET lease_until = now() WHERE worker = 'c'`);
    expect(await run('a', new Date('2026-01-01T00:08:00Z'))).toBe('ran');

    const runs = await core().sequelize.query<{ tick: Date; worker: string; outcome: string | null }>(
      'SELECT tick, worker, outcome FROM job_runs ORDER BY tick',
      { type: QueryTypes.SELECT },
    );
    expect(runs.map((row) => [row.tick.toISOString().slice(11, 16), row.worker, row.outcome])).toEqual([
      ['00:05', 'a', 'ran'],
      ['00:06', 'c', null],
      ['00:08', 'a', 'ran'],
    ]);
  });

  // Waits for real one-second cron ticks: 3 s measured on the shared 2-core machine.
  it('runs housekeeping once per tick across two workers whose timers fire together', async () => {
    const ticks: number[] = [];
    const job: ScheduledJob = {
      name: 'housekeeping',
      schedule: '* * * * * *',
      // Over at once, as housekeeping often is: a lock held only while it runs would let the later
      // worker run the same tick again.
      async run() {
        ticks.push(Date.now());
      },
    };
    const workers = await runTwoWorkers(core(), job);
    const [claimed] = await core().sequelize.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM job_runs WHERE job = 'housekeeping' AND outcome = 'ran'`,
      { type: QueryTypes.SELECT },
    );
    expect(ticks.length).toBe(claimed!.count);
    const skipped = await Promise.all(workers.map((worker) => runsWith(worker.registry, 'skipped')));
    expect(skipped.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
  }, 30_000);

  it('tells a run in progress to wrap up when the worker stops, and records it finished', async () => {
    let started = false;
    const job: ScheduledJob = {
      name: 'reconcile',
      schedule: '* * * * * *',
      maxRunMs: 600_000,
      async run({ signal }) {
        started = true;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    };
    const { scheduler } = startScheduler(core(), job);
    await pollUntil('the run to start', () => started);
    await scheduler.stop();

    const runs = await core().sequelize.query<{ outcome: string | null }>('SELECT outcome FROM job_runs', {
      type: QueryTypes.SELECT,
    });
    expect(runs).toEqual([{ outcome: 'ran' }]);
  });

  // Waits for real one-second cron ticks: 3 s measured on the shared 2-core machine.
  it('announces each expiry once across two workers running the job every second', async () => {
    const { sequelize } = core();
    const users = await Promise.all(Array.from({ length: 20 }, () => createUser()));
    for (const user of users) await grantMonth(sequelize, user.providerId);
    await sequelize.query(`UPDATE user_premiums SET expires_at = now() - interval '1 minute'`);

    const expiryEverySecond = { ...expiryJob, schedule: '* * * * * *' };
    await runTwoWorkers(core(), expiryEverySecond);
    const announced = (await OutboxEvent.findAll()).filter((row) => row.payload.source === 'expiry');
    expect(announced.map((row) => row.payload.providerId).sort()).toEqual(
      users.map((user) => user.providerId).sort(),
    );
  }, 30_000);

  it('housekeeping removes webhook ids after 7 days and dead outbox rows after 30, nothing else', async () => {
    const { sequelize } = core();
    await sequelize.query(`
      INSERT INTO webhook_events (event_id, event_type, received_at) VALUES
        ('old', 'payment.captured', now() - interval '8 days'),
        ('recent', 'payment.captured', now() - interval '6 days');
      INSERT INTO outbox (event_id, type, aggregate_key, payload, created_at, dead_at)
      SELECT id, 'USER_PREMIUM_ADD', label, jsonb_build_object('eventId', id, 'type', 'USER_PREMIUM_ADD'),
             now() - interval '40 days', dead_at
      FROM (SELECT gen_random_uuid() AS id, label, dead_at
            FROM (VALUES ('dead long ago', now() - interval '31 days'),
                         ('dead lately', now() - interval '29 days'),
                         ('pending', NULL::timestamptz)) AS rows (label, dead_at)) AS labelled;
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

/** Two workers' schedulers running `job` until each has seen three ticks (run or skipped), then stopped. */
async function runTwoWorkers(core: Core, job: ScheduledJob) {
  const workers = [startScheduler(core, job), startScheduler(core, job)];
  try {
    await pollUntil('each worker to have seen three ticks', async () => {
      const runs = await Promise.all(workers.map((worker) => completedRuns(worker.registry)));
      return runs.every((count) => count >= 3);
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.scheduler.stop()));
  }
  return workers;
}

/** A worker's scheduler running `job`: the two of a test share nothing but the database, as two processes would. */
function startScheduler(core: Core, job: ScheduledJob): { scheduler: Scheduler; registry: Registry } {
  const registry = new Registry();
  const scheduler = new Scheduler({ core, jobs: [job], logger, registry });
  scheduler.start();
  return { scheduler, registry };
}

async function runValues(registry: Registry) {
  return (await registry.getSingleMetric('premium_worker_job_runs_total')?.get())?.values ?? [];
}

/** Runs that finished, whether this worker did the work or found another worker doing it. */
async function completedRuns(registry: Registry): Promise<number> {
  const values = await runValues(registry);
  return values
    .filter((value) => value.labels.result !== 'failed')
    .reduce((sum, value) => sum + value.value, 0);
}

async function runsWith(registry: Registry, result: string): Promise<number> {
  return (await runValues(registry)).find((value) => value.labels.result === result)?.value ?? 0;
}

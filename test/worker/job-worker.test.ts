import pino from 'pino';
import { Registry } from 'prom-client';
import { QueryTypes } from 'sequelize';
import { enqueue } from '../../src/core/jobs';
import { registerBusinessMetrics } from '../../src/worker/business-metrics';
import type { JobHandler } from '../../src/worker/queue/handler';
import { JobWorker } from '../../src/worker/queue/job-worker';
import { json, premium } from '../support/cli';
import { useTestCore } from '../support/context';
import { pollUntil } from '../support/wait';

// The built CLI, as child processes: seconds a run on the shared 2-core machine.
jest.setTimeout(60_000);

const core = useTestCore();
const db = () => core().sequelize;
const logger = pino({ level: 'silent' });

function workerOf(...handlers: JobHandler<never>[]): JobWorker {
  return new JobWorker({ sequelize: db(), handlers, logger, pollMs: 20 });
}

async function enqueueMany(kind: string, count: number): Promise<void> {
  await db().transaction(async (transaction) => {
    for (let n = 0; n < count; n++) await enqueue(kind, { n }, {}, transaction);
  });
}

async function states(): Promise<Record<string, number>> {
  const rows = await db().query<{ state: string; count: number }>(
    'SELECT state, count(*)::int AS count FROM jobs GROUP BY state',
    { type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.count]));
}

interface ListedJob {
  id: number;
  kind: string;
  state: string;
  attempts: number;
  lastError: string | null;
}

describe('the job worker', () => {
  it('runs every job once when two workers drain the queue together', async () => {
    await enqueueMany('test_count', 60);
    const runs: number[] = [];
    const handler: JobHandler<{ n: number }> = {
      kind: 'test_count',
      async run({ n }) {
        runs.push(n);
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
    };
    const workers = [workerOf(handler), workerOf(handler)];
    workers.forEach((worker) => worker.start());
    try {
      await pollUntil('every job done', async () => (await states()).done === 60);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
    expect(runs.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  it('retries a failing job with a growing wait, shows it dead after its last attempt, and runs it again on retry', async () => {
    await enqueueMany('test_flaky', 1);
    const tries: number[] = [];
    let healed = false;
    const worker = workerOf({
      kind: 'test_flaky',
      maxAttempts: 3,
      backoff: { firstMs: 200, maxMs: 10_000 },
      async run() {
        tries.push(Date.now());
        if (!healed) throw new Error('the far end answered 503');
      },
    });
    worker.start();
    try {
      await pollUntil('the job dead', async () => (await states()).dead === 1);
      expect(tries).toHaveLength(3);
      // Between half and all of 200 ms, then of 400 ms.
      expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(100);
      expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(200);

      const listed = await premium(['--json', 'jobs', 'list', '--kind', 'test_flaky']);
      expect(listed.code).toBe(0);
      const { jobs } = json<{ jobs: ListedJob[] }>(listed);
      expect(jobs).toEqual([
        expect.objectContaining({
          kind: 'test_flaky',
          state: 'dead',
          attempts: 3,
          lastError: 'the far end answered 503',
        }),
      ]);
      expect(json(await premium(['--json', 'jobs', 'dead']))).toEqual({ jobs });
      const registry = new Registry();
      registerBusinessMetrics(registry, core());
      expect(await registry.metrics()).toMatch(/^premium_jobs\{kind="test_flaky",state="dead"\} 1$/m);

      healed = true;
      const retried = await premium(['--json', 'jobs', 'retry', String(jobs[0]!.id)]);
      expect(retried.code).toBe(0);
      expect(json(retried)).toEqual({ job: expect.objectContaining({ state: 'queued', attempts: 0 }) });
      await pollUntil('the job done', async () => (await states()).done === 1);
      expect(tries).toHaveLength(4);
    } finally {
      await worker.stop();
    }
  });

  it('runs a job again once the lease of a worker that died with it runs out', async () => {
    await enqueueMany('test_lease', 1);
    let release = () => {};
    const hung = new Promise<void>((resolve) => (release = resolve));
    // A worker that stops answering mid-job (killed, or stuck) holds its claim until the lease ends.
    const dying = workerOf({ kind: 'test_lease', leaseMs: 500, run: () => hung });
    dying.start();
    await pollUntil('the job claimed', async () => (await states()).running === 1);

    let reruns = 0;
    const healthy = workerOf({
      kind: 'test_lease',
      async run() {
        reruns++;
      },
    });
    healthy.start();
    try {
      await pollUntil('the job done by the other worker', async () => (await states()).done === 1);
      expect(reruns).toBe(1);
    } finally {
      release();
      await Promise.all([dying.stop(), healthy.stop()]);
    }
    // The dead worker's late answer changes nothing.
    expect(await states()).toEqual({ done: 1 });
  });

  it('refuses a bad state or id with exit 2, and retries no job that is not dead or waiting', async () => {
    const badState = await premium(['jobs', 'list', '--state', 'lost']);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/option '--state <state>' argument 'lost' is invalid/);
    expect((await premium(['jobs', 'retry', 'x'])).code).toBe(2);
    const missing = await premium(['jobs', 'retry', '99']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'error: no job 99 dead or waiting (done, running, or none) (JOB_NOT_FOUND)\n',
    );
  });
});

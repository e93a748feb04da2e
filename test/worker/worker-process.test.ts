import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Redis } from 'ioredis';
import { QueryTypes } from 'sequelize';
import type { Config } from '../../src/core/config';
import { uniqueName, useTestCore } from '../support/context';
import { insertOutboxRows, pendingRows, streamIds } from '../support/outbox-stream';
import { freePort } from '../support/ports';
import { useRelays } from '../support/relays';
import { pollUntil } from '../support/wait';

// Each test starts and stops processes of its own (node or tsx): seconds a test on the shared 2-core machine.
jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, '../..');
/** Enough that the worker is still relaying when the test signals it. */
const BACKLOG = 20_000;

describe('the worker process', () => {
  const core = useTestCore();
  const startRelay = useRelays();
  const workers: ChildProcess[] = [];
  let redis: Redis;
  let config: Config;

  beforeAll(() => {
    redis = new Redis(core().config.redisUrl);
  });
  beforeEach(() => {
    config = { ...core().config, eventsStream: uniqueName('events') };
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) if (worker.exitCode === null) worker.kill('SIGKILL');
    await redis.del(config.eventsStream);
  });
  afterAll(() => redis.quit());

  /** Runs `src/worker/main.ts` as `npm run dev` does, in a process of its own. */
  function spawnWorker(port: number): ChildProcess {
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        EVENTS_STREAM: config.eventsStream,
        WORKER_PORT: String(port),
        // Reconcile would call Razorpay, which the tests cannot reach: schedule it out of their way.
        RECONCILE_CRON: '0 0 1 1 *',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    workers.push(worker);
    return worker;
  }

  const relayedSome = () =>
    pollUntil('the worker to relay', async () => (await redis.xlen(config.eventsStream)) > 0);

  /** Drains what the worker left with a relay of the test's own; returns every id in the stream. */
  async function drainRest(): Promise<string[]> {
    startRelay(config);
    await pollUntil('the outbox to drain', async () => (await pendingRows(core().sequelize)) === 0);
    return streamIds(redis, config.eventsStream);
  }

  it('loses nothing when killed with SIGKILL in the middle of a batch', async () => {
    const ids = await insertOutboxRows(core().sequelize, BACKLOG);
    const worker = spawnWorker(await freePort());
    await relayedSome();
    const exited = once(worker, 'exit');
    worker.kill('SIGKILL');
    await exited;
    expect(await pendingRows(core().sequelize)).toBeGreaterThan(0);

    // Its claims ended with its connections: no relay session is left holding rows.
    await pollUntil('the killed worker to leave the database', async () => {
      const [row] = await core().sequelize.query<{ sessions: number }>(
        `SELECT count(*) AS sessions FROM pg_stat_activity
         WHERE datname = current_database() AND application_name LIKE 'premium-relay%'`,
        { type: QueryTypes.SELECT },
      );
      return row?.sessions === 0;
    });
    const relayed = await drainRest();
    // A batch Redis acknowledged just before the kill is relayed again: consumers drop the duplicate.
    expect(new Set(relayed)).toEqual(new Set(ids));
  });

  it('serves /healthz and /metrics, and on SIGTERM finishes its batch and exits 0', async () => {
    const ids = await insertOutboxRows(core().sequelize, BACKLOG);
    const port = await freePort();
    const worker = spawnWorker(port);
    const base = `http://127.0.0.1:${port}`;
    await pollUntil('/healthz', () =>
      fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      ),
    );
    await relayedSome();
    const metrics = await (await fetch(`${base}/metrics`)).text();
    for (const name of [
      'premium_outbox_rows{state="pending"}',
      'premium_outbox_rows{state="dead"}',
      'premium_outbox_oldest_pending_age_seconds',
      'premium_outbox_relayed_total',
      'premium_outbox_relay_latency_seconds_bucket',
      'premium_outbox_row_failures_total',
      'premium_outbox_redis_errors_total',
    ]) {
      expect(metrics).toContain(name);
    }

    const exited = once(worker, 'exit');
    worker.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    expect(await pendingRows(core().sequelize)).toBeGreaterThan(0);
    // Nothing was left half done: every event reaches the stream exactly once.
    const relayed = await drainRest();
    expect(relayed).toHaveLength(ids.length);
    expect(new Set(relayed)).toEqual(new Set(ids));
  });
});

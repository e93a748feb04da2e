import { Redis } from 'ioredis';
import { QueryTypes } from 'sequelize';
import { createCore, type Core } from '../../src/core';
import type { User } from '../../src/core/models';
import { issueSessionToken } from '../../src/core/session';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { premium, json } from '../support/cli';
import { freePorts, runProcess, type RunningProcess } from '../support/processes';
import { testConfig, uniqueName } from '../support/context';
import { createDatabase, databaseUrl, dropDatabase } from '../support/databases';
import { createUser } from '../support/fixtures';
import { pollUntil } from '../support/wait';
import { readStream } from '../support/outbox-stream';
import { describeNeeding, PGBOUNCER } from '../support/requirements';
import { PrivatePgBouncer } from './support/private-pgbouncer';

// Six processes of the API behind PgBouncer: each test and their stop take seconds.
jest.setTimeout(60_000);

const REPLICAS = 3;
const RATE_LIMIT = 5;
/** Six Node processes starting at once on a busy machine take their time. */
const READY_WITHIN_MS = 90_000;

/**
 * Three API processes and three workers (the compiled service) on one PostgreSQL, reached only through a
 * PgBouncer in transaction mode, and one Redis: two workers' relays only poll (OUTBOX_LISTEN=false), the
 * third LISTENs on a connection straight to PostgreSQL (OUTBOX_LISTEN_URL); every cron job
 * runs every second on every worker.
 */
describeNeeding(
  PGBOUNCER,
  'three API replicas and three workers through PgBouncer in transaction mode',
  (pgbouncer) => {
    const database = `${process.env.TEST_RUN_ID}_pgbouncer`;
    const directUrl = databaseUrl(database);
    const stream = uniqueName('events');
    let bouncer: PrivatePgBouncer;
    let sandbox: Sandbox;
    let core: Core;
    let redis: Redis;
    const processes: RunningProcess[] = [];
    const apis: string[] = [];
    const workerMetrics: string[] = [];

    beforeAll(async () => {
      await createDatabase(database, { template: `${process.env.TEST_RUN_ID}_template` });
      const config = testConfig({ DATABASE_URL: directUrl, EVENTS_STREAM: stream });
      core = createCore(config);
      redis = new Redis(config.redisUrl);
      bouncer = await PrivatePgBouncer.start(pgbouncer, directUrl);
      sandbox = await startSandbox({ discord: config.discord, razorpay: config.razorpay });
      const env = {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: bouncer.url(directUrl),
        // PgBouncer 1.18 in transaction mode keeps no prepared statement from one transaction to the next.
        DATABASE_PREPARED_STATEMENTS: 'false',
        REDIS_URL: config.redisUrl,
        // Rate-limit counters of this run only (a run a minute earlier used the same client addresses).
        REDIS_KEY_PREFIX: config.redisKeyPrefix,
        EVENTS_STREAM: stream,
        RAZORPAY_API_URL: sandbox.razorpayApiUrl,
        RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        // Each request names its client in X-Forwarded-For, so that no other test shares its counters.
        TRUST_PROXY: 'true',
        OUTBOX_POLL_INTERVAL_MS: '100',
        RECONCILE_CRON: '* * * * * *',
        EXPIRY_CRON: '* * * * * *',
        HOUSEKEEPING_CRON: '* * * * * *',
      };
      // Three replicas on one host: each metrics server on a port of its own, chosen with the others (a
      // METRICS_PORT of 0 could be handed another replica's PORT before that replica takes it).
      const ports = await freePorts(3 * REPLICAS);
      for (let i = 0; i < REPLICAS; i++) {
        const [apiPort, workerPort, metricsPort] = ports.slice(3 * i, 3 * i + 3) as [number, number, number];
        const api = `http://127.0.0.1:${apiPort}`;
        const worker = `http://127.0.0.1:${workerPort}`;
        processes.push(
          runProcess(
            `scaling-api-${i + 1}`,
            'src/server/main.js',
            { ...env, PORT: String(apiPort), METRICS_PORT: String(metricsPort), HOST: '127.0.0.1' },
            `${api}/readyz`,
            READY_WITHIN_MS,
          ),
          runProcess(
            `scaling-worker-${i + 1}`,
            'src/worker/main.js',
            {
              ...env,
              WORKER_PORT: String(workerPort),
              HOST: '127.0.0.1',
              ...(i === 0 ? { OUTBOX_LISTEN_URL: directUrl } : { OUTBOX_LISTEN: 'false' }),
            },
            `${worker}/healthz`,
            READY_WITHIN_MS,
          ),
        );
        apis.push(api);
        workerMetrics.push(`${worker}/metrics`);
      }
      await Promise.all(processes.map((process) => process.ready));
    }, 2 * READY_WITHIN_MS);

    afterAll(async () => {
      await Promise.all(processes.map((process) => process.stop()));
      await sandbox?.close();
      await bouncer?.stop();
      await redis?.del(stream);
      redis?.disconnect();
      await core?.close();
      await dropDatabase(database);
    });

    let nextClient = 0;
    /** A request to replica `i` from a client address of its own. */
    function call(i: number, path: string, init: { user?: User; body?: object; client?: string } = {}) {
      const headers: Record<string, string> = { 'x-forwarded-for': init.client ?? `10.99.0.${++nextClient}` };
      if (init.user) {
        const { providerId, username, avatar } = init.user;
        headers.authorization = `Bearer ${issueSessionToken(core.config.jwtSecret, { providerId, username, avatar })}`;
      }
      if (init.body) headers['content-type'] = 'application/json';
      return fetch(`${apis[i % REPLICAS]}${path}`, {
        method: init.body ? 'POST' : 'GET',
        headers,
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
    }

    async function paidOrder(
      user: User,
      via: number,
    ): Promise<{ razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }> {
      const order = await call(via, '/api/payment/create-order', {
        user,
        body: { providerId: user.providerId, amount: 199, planType: 'Monthly', category: 'USER' },
      });
      expect(order.status).toBe(200);
      return sandbox.razorpay.pay(((await order.json()) as { id: string }).id);
    }

    const isPremium = async (user: User, via: number) =>
      ((await (await call(via, `/api/auth/user/${user.providerId}`)).json()) as { isPremium: boolean })
        .isPremium;

    async function jobRuns(): Promise<number> {
      let runs = 0;
      for (const url of workerMetrics) {
        const text = await (await fetch(url)).text();
        for (const match of text.matchAll(
          /^premium_worker_job_runs_total\{job="expiry",result="(?:ran|skipped)"\} (\d+)/gm,
        ))
          runs += Number(match[1]);
      }
      return runs;
    }

    it('takes payments on any replica, applies each once (verify, reconcile, CLI), and relays every event once', async () => {
      const buyers = await Promise.all(Array.from({ length: 2 * REPLICAS }, () => createUser()));
      for (const [i, buyer] of buyers.entries()) {
        const checkout = await paidOrder(buyer, i);
        const body = {
          providerId: buyer.providerId,
          processor_order_id: checkout.razorpay_order_id,
          processor_payment_id: checkout.razorpay_payment_id,
          processor_signature: checkout.razorpay_signature,
        };
        // The browser's verification, then the same again on another replica: applied once.
        for (const via of [i + 1, i + 2]) {
          const verified = await call(via, '/api/payment/verify-payment', { user: buyer, body });
          expect(verified.status).toBe(200);
        }
        expect(await isPremium(buyer, i)).toBe(true);
      }

      // Paid, but the browser never came back: the workers' reconcile job applies it.
      const unverified = await createUser();
      const unverifiedCheckout = await paidOrder(unverified, 0);
      // As if its first check had come: the job asks only about due orders.
      await core.sequelize.query(
        `UPDATE orders SET next_check_at = now() - interval '1 second' WHERE processor_order_id = $1`,
        { bind: [unverifiedCheckout.razorpay_order_id] },
      );
      await pollUntil('reconcile to apply the payment', () => isPremium(unverified, 1), { intervalMs: 200 });

      const granted = await createUser();
      const cli = await premium(
        ['grant', '--user', granted.providerId, '--plan', 'Monthly', '--reason', 'scaling test', '--json'],
        { DATABASE_URL: bouncer.url(directUrl) },
      );
      expect(cli).toMatchObject({ code: 0 });
      expect(json(cli)).toBeTruthy();

      // One premium runs out: some worker's expiry job announces it.
      const [expiring] = buyers;
      await core.sequelize.query(
        `UPDATE user_premiums SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE provider_id = $1)`,
        { bind: [expiring!.providerId] },
      );
      const expiredEvent = async () =>
        (await readStream(redis, stream)).filter(
          (event) =>
            event.type === 'USER_PREMIUM_REMOVE' && event.payload.providerId === expiring!.providerId,
        );
      await pollUntil('the expiry to be announced', async () => (await expiredEvent()).length > 0, {
        intervalMs: 200,
      });
      // Every worker's expiry job runs twice more after the announcement (or finds another one running).
      const runsThen = await jobRuns();
      await pollUntil(
        'two more ticks on every worker',
        async () => (await jobRuns()) >= runsThen + 2 * REPLICAS,
        {
          intervalMs: 200,
        },
      );

      await pollUntil('the outbox to drain', async () => {
        const [row] = await core.sequelize.query<{ pending: number }>(
          'SELECT count(*)::int AS pending FROM outbox',
          {
            type: QueryTypes.SELECT,
          },
        );
        return row?.pending === 0;
      });
      const ledger = await core.sequelize.query<{ event_id: string; provider_id: string }>(
        'SELECT g.event_id, u.provider_id FROM premium_grants g JOIN users u ON u.id = g.user_id',
        { type: QueryTypes.SELECT },
      );
      // One grant per payment and per command, though verified twice and reconciled by three workers.
      expect(ledger).toHaveLength(buyers.length + 2);
      expect(new Set(ledger.map((row) => row.provider_id))).toEqual(
        new Set([...buyers, unverified, granted].map((user) => user.providerId)),
      );
      const relayed = (await readStream(redis, stream)).map((event) => event.id);
      const expired = await expiredEvent();
      expect(expired).toHaveLength(1);
      expect(expired[0]!.payload).toMatchObject({ reason: 'expired' });
      // Each event exactly once: the ledger's grants and the one expiry.
      expect(relayed.sort()).toEqual([...ledger.map((row) => row.event_id), expired[0]!.id].sort());
    }, 180_000);

    it("runs the CLI's schema commands through it", async () => {
      const env = { DATABASE_URL: bouncer.url(directUrl) };
      const migrate = await premium(['db', 'migrate', '--json'], env);
      expect(migrate).toMatchObject({ code: 0 });
      const status = await premium(['db', 'status', '--json'], env);
      expect(status).toMatchObject({ code: 0 });
      expect(json<{ executed: string[]; pending: string[] }>(status)).toMatchObject({
        executed: expect.arrayContaining([expect.stringMatching(/^001-/)]),
        pending: [],
      });
    });

    it('LISTENs only where OUTBOX_LISTEN_URL says, straight to PostgreSQL', async () => {
      const listeners = await core.sequelize.query<{ address: string }>(
        `SELECT client_addr::text AS address FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'premium-relay-listen' AND query ILIKE 'LISTEN%'`,
        { type: QueryTypes.SELECT },
      );
      expect(listeners).toHaveLength(1);
    });

    it('counts each client against one rate limit, whichever replica it reaches', async () => {
      const user = await createUser();
      const client = '10.98.0.1';
      const statuses = [];
      for (let i = 0; i <= RATE_LIMIT; i++)
        statuses.push((await call(i, `/api/auth/user/${user.providerId}`, { client })).status);
      expect(statuses).toEqual([...Array<number>(RATE_LIMIT).fill(200), 429]);
      expect((await call(1, `/api/auth/user/${user.providerId}`)).status).toBe(200);
    });
  },
);

import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Core } from '../../../src/core';
import { formatPlanIds } from '../../../src/core/plan-ids';
import { SANDBOX_PLAN_IDS } from '../../../src/sandbox';
import { resetDatabase, testConfig, useTestCore, workerDatabaseUrl } from '../../support/context';
import { freePorts, runProcess, type RunningProcess } from '../../support/processes';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const STARTUP_MS = 30_000;

export interface Product {
  /** The API's base URL. */
  api: string;
  /** The sandbox's base URL (`/sandbox/messages`: the buyers' DMs and the mails its SMTP sink took). */
  sandbox: string;
  stream: string;
  redis: Redis;
  core: Core;
  /**
   * A fresh tab in a context of its own (its own storage); any uncaught error of the page, and any request to outside the
   * machine (in development everything, avatars included, is local), fails the test.
   */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** The API's output (test-artifacts/e2e-<test file>-api.log: each file's own, as they run at once). */
  apiLog: string;
  /** Polls this worker's database until `done` holds of the rows (bounded by the test's timeout). */
  untilRows(sql: string, done: (rows: unknown[]) => boolean): Promise<void>;
}

/**
 * The whole product as a person meets it: the compiled sandbox (with its plans, as `npm run dev` has
 * them), API and worker on free ports, this jest worker's database, and the browser at `browserPath`;
 * `extraEnv` adds settings (OPERATOR_PROVIDER_IDS, say).
 */
export function useProduct(browserPath: string, extraEnv: NodeJS.ProcessEnv = {}): () => Product {
  const getCore = useTestCore();
  const stream = testConfig().eventsStream;
  let api = '';
  let sandbox = '';
  let processes: RunningProcess[] = [];
  let browser: Browser | undefined;
  let redis: Redis | undefined;
  let pageErrors: string[] = [];
  let outside: string[] = [];

  beforeAll(async () => {
    // The worker relays at once: outbox rows an earlier test file of this jest worker left must not reach
    // this test's stream.
    await resetDatabase(getCore());
    // The API's metrics port is chosen with the others: a METRICS_PORT of 0 could be handed the port just
    // freed for PORT before the API takes it (EADDRINUSE at start).
    const [apiPort, sandboxPort, workerPort, metricsPort, smtpPort] = await freePorts(5);
    api = `http://127.0.0.1:${apiPort}`;
    sandbox = `http://127.0.0.1:${sandboxPort}`;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      DATABASE_URL: workerDatabaseUrl(),
      REDIS_URL: testConfig().redisUrl,
      EVENTS_STREAM: stream,
      REDIS_KEY_PREFIX: testConfig().redisKeyPrefix,
      PORT: String(apiPort),
      WORKER_PORT: String(workerPort),
      METRICS_PORT: String(metricsPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_SMTP_PORT: String(smtpPort),
      // As npm run dev sets it: the buyers' mails go to the sandbox's SMTP sink.
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SANDBOX_WEBHOOK_URL: `${api}/api/payment/webhook`,
      // As a seller sets it: sign-in lands on the store's /store/dashboard.
      FRONTEND_URL: `${api}/store`,
      DISCORD_REDIRECT_URI: `${api}/api/auth/idp/callback`,
      DISCORD_API_URL: `${sandbox}/discord/api/v10`,
      DISCORD_AUTHORIZE_URL: `${sandbox}/discord/oauth2/authorize`,
      DISCORD_CDN_URL: `${sandbox}/discord/cdn`,
      RAZORPAY_API_URL: `${sandbox}/razorpay`,
      RAZORPAY_PLAN_IDS: formatPlanIds(SANDBOX_PLAN_IDS),
      ...extraEnv,
    };
    redis = new Redis(env.REDIS_URL);
    const file = path.basename(expect.getState().testPath ?? 'e2e', '.test.ts');
    processes = [
      runProcess(`e2e-${file}-sandbox`, 'src/sandbox/main.js', env, `${sandbox}/bot/events`),
      runProcess(`e2e-${file}-api`, 'src/server/main.js', env, `${api}/readyz`),
      runProcess(`e2e-${file}-worker`, 'src/worker/main.js', env, `http://127.0.0.1:${workerPort}/healthz`),
    ];
    const launching = chromium.launch({ executablePath: browserPath, args: CHROMIUM_ARGS });
    void launching.then((launched) => (browser = launched));
    await Promise.all([launching, ...processes.map((running) => running.ready)]);
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(processes.map((running) => running.stop()));
    await redis?.del(stream);
    redis?.disconnect();
  });

  afterEach(() => {
    expect({ pageErrors, outside }).toEqual({ pageErrors: [], outside: [] });
    pageErrors = [];
    outside = [];
  });

  return () => ({
    api,
    sandbox,
    apiLog: processes[1]!.logFile,
    stream,
    redis: redis!,
    core: getCore(),
    async newPage(viewport = { width: 1000, height: 900 }) {
      const page = await browser!.newPage({ viewport });
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('request', (request) => {
        if (!['127.0.0.1', 'localhost'].includes(new URL(request.url()).hostname))
          outside.push(request.url());
      });
      return page;
    },
    async untilRows(sql, done) {
      while (!done((await getCore().sequelize.query(sql))[0])) await sleep(100);
    },
  });
}

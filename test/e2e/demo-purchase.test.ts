import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEMO_USER } from '../../src/sandbox';
import { testConfig, useTestCore, workerDatabaseUrl } from '../support/context';
import { DAY_MS } from '../support/fixtures';
import { ARTIFACTS, freePorts, runProcess, type RunningProcess } from './support/processes';

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
const TEST_MS = 60_000;

/** The whole product as a person meets it: the compiled sandbox, API and worker, and a real browser. */
describe('the demo page in a browser', () => {
  const getCore = useTestCore();
  const stream = testConfig().eventsStream;
  let api: string;
  let processes: RunningProcess[] = [];
  let browser: Browser | undefined;
  let redis: Redis;

  beforeAll(async () => {
    const [apiPort, sandboxPort, workerPort] = await freePorts(3);
    api = `http://127.0.0.1:${apiPort}`;
    const sandbox = `http://127.0.0.1:${sandboxPort}`;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      DATABASE_URL: workerDatabaseUrl(),
      REDIS_URL: testConfig().redisUrl,
      EVENTS_STREAM: stream,
      PORT: String(apiPort),
      WORKER_PORT: String(workerPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_WEBHOOK_URL: `${api}/api/payment/webhook`,
      FRONTEND_URL: api,
      DISCORD_REDIRECT_URI: `${api}/api/auth/idp/callback`,
      DISCORD_API_URL: `${sandbox}/discord/api/v10`,
      DISCORD_AUTHORIZE_URL: `${sandbox}/discord/oauth2/authorize`,
      RAZORPAY_API_URL: `${sandbox}/razorpay`,
    };
    redis = new Redis(env.REDIS_URL);
    processes = [
      runProcess('e2e-sandbox', 'src/sandbox/main.js', env, `${sandbox}/bot/events`),
      runProcess('e2e-api', 'src/server/main.js', env, `${api}/readyz`),
      runProcess('e2e-worker', 'src/worker/main.js', env, `http://127.0.0.1:${workerPort}/healthz`),
    ];
    const launching = chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    void launching.then((launched) => (browser = launched));
    await Promise.all([launching, ...processes.map((running) => running.ready)]);
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(processes.map((running) => running.stop()));
    await redis?.del(stream);
    redis?.disconnect();
  });

  /** Rows of this worker's database, once `done` holds of them (bounded by the test's timeout). */
  async function untilRows<T>(sql: string, done: (rows: T[]) => boolean): Promise<T[]> {
    for (;;) {
      const [rows] = (await getCore().sequelize.query(sql)) as [T[], unknown];
      if (done(rows)) return rows;
      await sleep(100);
    }
  }

  async function statusText(page: Page, pattern: RegExp): Promise<string> {
    const status = page.locator('#status', { hasText: pattern });
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }

  it(
    'signs in, buys Monthly for yourself through the checkout and shows the premium and the bot event',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
      page.setDefaultTimeout(15_000);
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      await page.goto(`${api}/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      expect(await statusText(page, /Not premium/)).toBe('Not premium');
      expect(page.url()).toBe(`${api}/dashboard`);
      await expect(page.locator('#username').textContent()).resolves.toBe(DEMO_USER.username);

      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      const paidAt = Date.now();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      const shown = await statusText(page, /^Premium until/);
      const expectedDays = [paidAt, Date.now()].map((time) =>
        new Date(time + 30 * DAY_MS).toISOString().slice(0, 10),
      );
      expect(expectedDays).toContain(/^Premium until (\d{4}-\d{2}-\d{2}) \d{2}:\d{2} UTC$/.exec(shown)?.[1]);
      const notice = page.locator('#notice', { hasText: 'Payment verified' });
      await notice.waitFor();
      await expect(notice.textContent()).resolves.toBe(
        `Payment verified: Monthly premium for your account is active until ${shown.slice('Premium until '.length)}.`,
      );
      const botEvents = page.locator('#events li', { hasText: 'USER_PREMIUM_ADD' });
      await botEvents.waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-purchase.png'), fullPage: true });

      // The checkout's webhooks (payment.captured, order.paid) race the page's verify-payment: one grant in all.
      await untilRows<{ event_type: string }>(
        'SELECT event_type FROM webhook_events',
        (rows) => rows.length >= 2,
      );
      const [grants] = await getCore().sequelize.query('SELECT source FROM premium_grants');
      expect(grants).toHaveLength(1);
      const events = (await redis.xrange(stream, '-', '+')).map(([, fields]) => {
        const payload = fields[fields.indexOf('payload') + 1];
        return JSON.parse(payload ?? 'null') as PremiumEventPayload;
      });
      expect(events.map(({ type, providerId, planType }) => ({ type, providerId, planType }))).toEqual([
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, planType: 'Monthly' },
      ]);
      expect(shown).toBe(`Premium until ${events[0]!.expiresAt.slice(0, 16).replace('T', ' ')} UTC`);
      await expect(botEvents.count()).resolves.toBe(1);
      expect(pageErrors).toEqual([]);
    },
    TEST_MS,
  );
});

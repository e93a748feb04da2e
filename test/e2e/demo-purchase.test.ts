import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEMO_USER } from '../../src/sandbox';
import { resetDatabase, testConfig, useTestCore, workerDatabaseUrl } from '../support/context';
import { DAY_MS } from '../support/fixtures';
import { describeWithBrowser } from './support/browser';
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
describeWithBrowser('the demo page in a browser', (browserPath) => {
  const getCore = useTestCore();
  const stream = testConfig().eventsStream;
  let api: string;
  let processes: RunningProcess[] = [];
  let browser: Browser | undefined;
  let redis: Redis;

  beforeAll(async () => {
    // This jest worker's earlier suites may have left outbox rows (the worker would relay them) and
    // stream entries: the events checked below are this suite's only.
    await resetDatabase(getCore());
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
      METRICS_PORT: '0',
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_WEBHOOK_URL: `${api}/api/payment/webhook`,
      FRONTEND_URL: api,
      DISCORD_REDIRECT_URI: `${api}/api/auth/idp/callback`,
      DISCORD_API_URL: `${sandbox}/discord/api/v10`,
      DISCORD_AUTHORIZE_URL: `${sandbox}/discord/oauth2/authorize`,
      DISCORD_CDN_URL: `${sandbox}/discord/cdn`,
      RAZORPAY_API_URL: `${sandbox}/razorpay`,
    };
    redis = new Redis(env.REDIS_URL);
    await redis.del(stream);
    processes = [
      runProcess('e2e-sandbox', 'src/sandbox/main.js', env, `${sandbox}/bot/events`),
      runProcess('e2e-api', 'src/server/main.js', env, `${api}/readyz`),
      runProcess('e2e-worker', 'src/worker/main.js', env, `http://127.0.0.1:${workerPort}/healthz`),
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

  /** Polls this worker's database until `done` holds of the rows (bounded by the test's timeout). */
  async function untilRows(sql: string, done: (rows: unknown[]) => boolean): Promise<void> {
    while (!done((await getCore().sequelize.query(sql))[0])) await sleep(100);
  }

  /**
   * A fresh tab (its own sessionStorage) that fails the test on any uncaught error of the page, and on
   * any request to outside the machine (in development everything, avatars included, is local).
   */
  async function newPage(viewport = { width: 1000, height: 900 }): Promise<Page> {
    const page = await browser!.newPage({ viewport });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      if (!['127.0.0.1', 'localhost'].includes(new URL(request.url()).hostname)) outside.push(request.url());
    });
    return page;
  }
  let pageErrors: string[] = [];
  let outside: string[] = [];
  afterEach(() => {
    expect({ pageErrors, outside }).toEqual({ pageErrors: [], outside: [] });
    pageErrors = [];
    outside = [];
  });

  async function textOf(page: Page, selector: string, pattern: RegExp): Promise<string> {
    const element = page.locator(selector, { hasText: pattern });
    await element.waitFor();
    return (await element.textContent()) ?? '';
  }

  /** Through the sandbox's Discord consent page, back to the dashboard. */
  async function signIn(page: Page): Promise<void> {
    await page.goto(`${api}/`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    expect(await textOf(page, '#status', /Not premium/)).toBe('Not premium');
    // The session token came in the URL; it is kept in the tab, and out of the address bar.
    expect(page.url()).toBe(`${api}/dashboard`);
    await expect(page.locator('#username').textContent()).resolves.toBe(DEMO_USER.username);
    // The avatar the sandbox handed out, served by the sandbox.
    await page.waitForFunction("document.getElementById('avatar').naturalWidth > 0");
  }

  it(
    'signs in, buys Monthly for yourself through the checkout and shows the premium and the bot event',
    async () => {
      const page = await newPage();
      await signIn(page);

      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      const paidAt = Date.now();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      const shown = await textOf(page, '#status', /^Premium until/);
      const expectedDays = [paidAt, Date.now()].map((time) =>
        new Date(time + 30 * DAY_MS).toISOString().slice(0, 10),
      );
      expect(expectedDays).toContain(/^Premium until (\d{4}-\d{2}-\d{2}) \d{2}:\d{2} UTC$/.exec(shown)?.[1]);
      await expect(textOf(page, '#notice', /Payment verified/)).resolves.toBe(
        `Payment verified: Monthly premium for your account is active until ${shown.slice('Premium until '.length)}.`,
      );
      await expect(page.locator('#status-source').textContent()).resolves.toBe(
        'Your own premium, bought for your account.',
      );
      const botEvents = page.locator('#events li', { hasText: 'USER_PREMIUM_ADD' });
      await botEvents.waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-purchase.png'), fullPage: true });

      // The checkout's webhooks (payment.captured, order.paid) race the page's verify-payment: one grant in all.
      await untilRows('SELECT event_id FROM webhook_events', (rows) => rows.length >= 2);
      const [grants] = await getCore().sequelize.query('SELECT source FROM premium_grants');
      expect(grants).toHaveLength(1);
      const entries = (await redis.xrange(stream, '-', '+')).map(([, fields]) => {
        const payload = fields[fields.indexOf('payload') + 1];
        return JSON.parse(payload ?? 'null') as PremiumEventPayload;
      });
      // Delivery is at least once (a re-sent entry keeps its eventId): count events, not entries.
      const events = [...new Map(entries.map((event) => [event.eventId, event])).values()];
      expect(events.map(({ type, providerId, planType }) => ({ type, providerId, planType }))).toEqual([
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, planType: 'Monthly' },
      ]);
      expect(shown).toBe(`Premium until ${events[0]!.expiresAt.slice(0, 16).replace('T', ' ')} UTC`);
      await expect(botEvents.count()).resolves.toBe(1);
    },
    TEST_MS,
  );

  it(
    'says what went wrong: a cancelled sign-in, a declined payment, a forged checkout answer, an expired session',
    async () => {
      const page = await newPage();
      await page.goto(`${api}/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(textOf(page, '#error', /cancelled/)).resolves.toBe(
        'You cancelled the sign-in on Discord. (access_denied)',
      );
      await signIn(page);

      await page.getByLabel('Yearly, 365 days').check();
      await page.getByLabel('For').selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Buy for ₹1,999' }).click();
      await page.getByRole('heading', { name: 'Pay ₹1,999.00' }).waitFor();
      await page.getByRole('button', { name: 'Fail' }).click();
      await expect(textOf(page, '#error', /Payment failed/)).resolves.toBe(
        'Payment failed: The payment was declined in the sandbox checkout',
      );

      const forged = new URLSearchParams({
        razorpay_order_id: 'order_forged',
        razorpay_payment_id: 'pay_forged',
        razorpay_signature: '0'.repeat(64),
      });
      await page.goto(`${api}/dashboard?${forged}`);
      await expect(textOf(page, '#error', /SIGNATURE_MISMATCH/)).resolves.toMatch(
        /^The payment could not be verified: .* \(SIGNATURE_MISMATCH\)$/,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-declined.png'), fullPage: true });

      expect(await textOf(page, '#status', /premium/i)).toBe('Not premium');
      await expect(textOf(page, '#guilds li', /Demo Owned Server/)).resolves.toMatch(/Not premium$/);
      const [grants] = await getCore().sequelize.query('SELECT source FROM premium_grants');
      expect(grants).toEqual([]);

      await page.evaluate("sessionStorage.setItem('premium.sessionToken', 'expired.session.token')");
      await expect(textOf(page, '#error', /expired/)).resolves.toBe(
        'Your session has expired. Please sign in again. (session_expired)',
      );
      expect(page.url()).toBe(`${api}/login`);
    },
    TEST_MS,
  );

  it(
    'on a 390 px phone: prices on the plans, Custom out of range refused with the reason, an old banner cleared, the header on screen',
    async () => {
      const page = await newPage({ width: 390, height: 844 });
      await signIn(page);

      await page.getByLabel('Monthly, 30 days · ₹199').waitFor();
      await page.getByLabel('Yearly, 365 days · ₹1,999').waitFor();
      await page.getByLabel('Custom:').check();
      const buy = page.locator('#pay');
      for (const months of ['0', '37', '2.5']) {
        await page.getByRole('spinbutton', { name: 'Months' }).fill(months);
        await expect(buy.isDisabled()).resolves.toBe(true);
        await expect(buy.textContent()).resolves.toBe('Buy');
        await expect(page.locator('#buy-reason').textContent()).resolves.toBe(
          'Custom is 1 to 36 whole months.',
        );
      }
      await page.getByRole('spinbutton', { name: 'Months' }).fill('12');
      await expect(buy.isDisabled()).resolves.toBe(false);
      await expect(buy.textContent()).resolves.toBe('Buy for ₹2,388');
      await expect(page.locator('#buy-reason').isHidden()).resolves.toBe(true);

      await page.goto(`${api}/dashboard?error=BAD_REQUEST_ERROR&error_description=declined`);
      await expect(textOf(page, '#error', /Payment failed/)).resolves.toBe('Payment failed: declined');
      await page.getByLabel('Yearly, 365 days').check();
      await expect(page.locator('#error').isHidden()).resolves.toBe(true);

      const overflow = (await page.evaluate(`({
        page: document.documentElement.scrollWidth,
        header: Math.max(...[...document.querySelectorAll('header > *')].map((child) => child.getBoundingClientRect().right)),
      })`)) as { page: number; header: number };
      expect(overflow.page).toBeLessThanOrEqual(390);
      expect(overflow.header).toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-phone.png'), fullPage: true });
    },
    TEST_MS,
  );

  it(
    "shows a server's premium with the server, apart from the buyer's own",
    async () => {
      const page = await newPage();
      await signIn(page);

      await page.getByLabel('For').selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      await expect(textOf(page, '#guilds li', /Demo Owned Server.*Premium until/)).resolves.toMatch(
        /Premium until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/,
      );
      await expect(textOf(page, '#guilds li', /Demo Managed Server/)).resolves.toMatch(/Not premium$/);
      await expect(textOf(page, '#status-source', /server/)).resolves.toBe(
        'Your own premium, for the days you paid for a server.',
      );
    },
    TEST_MS,
  );
});

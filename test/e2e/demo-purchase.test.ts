import path from 'node:path';
import { seedPlan } from '../support/fixtures';
import type { Page } from 'playwright-core';
import { addPlan, addTier } from '../../src/core/catalog';
import { createCodes } from '../../src/core/codes/create-codes';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { INDIAN_DATE, indianDate, textOf, untilTrue } from './support/page-text';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';
import { signIn as signInToStore } from './support/sign-in';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 60_000;

/** The whole product as a person meets it: the compiled sandbox, API and worker, and a real browser. */
describeNeeding(BROWSER, 'buying in the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);
  const getCore = () => getProduct().core;
  const newPage = (viewport?: { width: number; height: number }) => getProduct().newPage(viewport);
  const untilRows = (sql: string, done: (rows: unknown[]) => boolean) => getProduct().untilRows(sql, done);

  /** Through the sandbox's Discord consent page, back to the dashboard. */
  async function signIn(page: Page): Promise<void> {
    await signInToStore(page, getProduct().api);
    // The session token came in the URL; it is kept in the tab, and out of the address bar.
    expect(page.url()).toBe(`${getProduct().api}/store/dashboard`);
    // Discord's display name (global_name) where the account has one, as the sandbox's demo user does.
    await expect(page.locator('#username').textContent()).resolves.toBe(DEMO_USER.global_name);
    // The avatar the sandbox handed out, served by the sandbox.
    await untilTrue(page, "document.getElementById('avatar').naturalWidth > 0");
  }

  it(
    'signs in, buys Monthly for yourself through the checkout and shows the premium and the bot event',
    async () => {
      const page = await newPage();
      await signIn(page);

      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      const shown = await textOf(page, '#status', /^Premium until/);
      await expect(textOf(page, '#buy-message', /Payment verified/)).resolves.toBe(
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
      const entries = (await getProduct().redis.xrange(getProduct().stream, '-', '+')).map(([, fields]) => {
        const payload = fields[fields.indexOf('payload') + 1];
        return JSON.parse(payload ?? 'null') as PremiumEventPayload;
      });
      // Delivery is at least once (a re-sent entry keeps its eventId): count events, not entries.
      const events = [...new Map(entries.map((event) => [event.eventId, event])).values()];
      expect(events.map(({ type, providerId, planType }) => ({ type, providerId, planType }))).toEqual([
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, planType: 'Monthly' },
      ]);
      expect(shown).toBe(`Premium until ${indianDate(events[0]!.expiresAt)}`);
      await expect(botEvents.count()).resolves.toBe(1);
    },
    TEST_MS,
  );

  it(
    'says what went wrong where it happened: a cancelled sign-in, a declined payment, a forged checkout answer, an expired session',
    async () => {
      const page = await newPage();
      await page.goto(`${getProduct().api}/store/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(textOf(page, '#sign-in-message', /cancelled/)).resolves.toBe(
        'You cancelled the sign-in on Discord. (access_denied)',
      );
      await signIn(page);

      await page.getByLabel('Yearly, 365 days').check();
      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Buy for ₹1,999' }).click();
      await page.getByRole('heading', { name: 'Pay ₹1,999.00' }).waitFor();
      await page.getByRole('button', { name: 'Fail' }).click();
      await expect(textOf(page, '#buy-message', /Payment failed/)).resolves.toBe(
        'Payment failed: The payment was declined in the sandbox checkout. Nothing was charged: pay again from Your orders.',
      );

      const forged = new URLSearchParams({
        razorpay_order_id: 'order_forged',
        razorpay_payment_id: 'pay_forged',
        razorpay_signature: '0'.repeat(64),
      });
      await page.goto(`${getProduct().api}/store/dashboard?${forged}`);
      await expect(textOf(page, '#buy-message', /SIGNATURE_MISMATCH/)).resolves.toMatch(
        /^The payment could not be verified: .* \(SIGNATURE_MISMATCH\)$/,
      );
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-declined.png'), fullPage: true });

      expect(await textOf(page, '#status', /premium/i)).toBe('Not premium');
      await expect(textOf(page, '#guilds li', /Demo Owned Server/)).resolves.toMatch(/Not premium$/);
      const [grants] = await getCore().sequelize.query('SELECT source FROM premium_grants');
      expect(grants).toEqual([]);

      await page.evaluate("localStorage.setItem('premium.sessionToken', 'expired.session.token')");
      await expect(textOf(page, '#sign-in-message', /expired/)).resolves.toBe(
        'Your session has expired. Please sign in again. (session_expired)',
      );
      expect(page.url()).toBe(`${getProduct().api}/store/login`);
    },
    TEST_MS,
  );

  it(
    'on a 390 px phone: prices on the plans, Custom out of range refused with the reason, an old message cleared, the header on screen',
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

      await page.goto(
        `${getProduct().api}/store/dashboard?error=BAD_REQUEST_ERROR&error_description=declined`,
      );
      await expect(textOf(page, '#buy-message', /Payment failed/)).resolves.toBe(
        'Payment failed: declined. Nothing was charged: pay again from Your orders.',
      );
      await page.getByLabel('Yearly, 365 days').check();
      await expect(page.locator('#buy-message').isHidden()).resolves.toBe(true);

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

      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      await expect(textOf(page, '#guilds li', /Demo Owned Server.*Premium until/)).resolves.toMatch(
        new RegExp(`Premium until ${INDIAN_DATE.source}$`),
      );
      await expect(textOf(page, '#guilds li', /Demo Managed Server/)).resolves.toMatch(/Not premium$/);
      await expect(textOf(page, '#status-source', /server/)).resolves.toBe(
        'Your own premium: buying premium for a server gives you, its buyer, the same days.',
      );
    },
    TEST_MS,
  );

  it(
    'redeems a gift code for a server, moves it to the other server, and checks an unpaid order again',
    async () => {
      const { codes } = await createCodes(getCore().sequelize, {
        plan: seedPlan('Monthly'),
        count: 1,
        expiresAt: null,
        actor: 'e2e',
        reason: 'giveaway',
      });
      const page = await newPage();
      await signIn(page);

      await page.getByLabel('Code', { exact: true }).fill(codes[0]!.code.toLowerCase());
      await page.getByLabel('Who gets it').selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Redeem' }).click();
      await expect(textOf(page, '#redeem-message', /Code redeemed/)).resolves.toMatch(
        new RegExp(
          `^Code redeemed: 30 days of Monthly premium for Demo Owned Server, active until ${INDIAN_DATE.source}\\.$`,
        ),
      );

      await page.getByLabel('Move to').selectOption({ label: 'Demo Managed Server' });
      await page.getByRole('button', { name: 'Move' }).click();
      // Asked in the page, as Unbind and Cancel are: the browser's own confirm() is never used.
      await expect(page.getByRole('dialog').textContent()).resolves.toMatch(
        /Move the premium of Demo Owned Server to Demo Managed Server\? Demo Owned Server loses it now\./,
      );
      await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
      await expect(textOf(page, '#transfer-message', /Moved/)).resolves.toMatch(
        /^Moved 30 days of premium from Demo Owned Server to Demo Managed Server: active there until /,
      );
      await textOf(page, '#guilds li', /Demo Managed Server.*Premium until/);
      await textOf(page, '#guilds li', /Demo Owned Server.*Premium expired/);

      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      await page.goto(`${getProduct().api}/store/dashboard`);
      await page.getByRole('button', { name: 'Check again' }).click();
      // Said in the order's own row, beside the button.
      await expect(textOf(page, '#orders li .message', /Razorpay/)).resolves.toMatch(/no completed payment/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-self-service.png'), fullPage: true });

      const [grants] = await getCore().sequelize.query(
        'SELECT source, guild_id FROM premium_grants ORDER BY id',
      );
      expect(grants).toEqual([
        { source: 'code', guild_id: '613425648685547541' },
        { source: 'transfer', guild_id: '613425648685547541' },
        { source: 'transfer', guild_id: '613425648685547542' },
      ]);
    },
    TEST_MS,
  );

  it(
    "lists the catalog's plans: a plan added there shows with its price, for whom it is sold, and is bought at it",
    async () => {
      const { sequelize } = getCore();
      await addTier(sequelize, { code: 'pro', name: 'Pro', rank: 2 });
      await addPlan(sequelize, null, {
        code: 'ProWeek',
        name: 'Pro week',
        tier: 'pro',
        scope: 'USER',
        days: 7,
        price: '49.50',
      });
      const page = await newPage();
      await signIn(page);

      const proWeek = page.getByLabel('Pro week, 7 days · ₹49.50');
      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Owned Server' });
      // Sold for users only: it cannot be chosen for a server.
      await expect(proWeek.isDisabled()).resolves.toBe(true);
      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Myself' });
      await proWeek.check();
      await page.getByRole('button', { name: 'Buy for ₹49.50' }).click();
      await page.getByRole('heading', { name: 'Pay ₹49.50' }).waitFor();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      await textOf(page, '#buy-message', /Payment verified/);
      const [orders] = await sequelize.query('SELECT plan_type, tier, amount_paise, status FROM orders');
      expect(orders).toEqual([{ plan_type: 'ProWeek', tier: 'pro', amount_paise: 4_950, status: 'paid' }]);
    },
    TEST_MS,
  );
});

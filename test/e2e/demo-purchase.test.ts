import path from 'node:path';
import type { Page } from 'playwright-core';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEMO_USER } from '../../src/sandbox';
import { DAY_MS } from '../support/fixtures';
import { ARTIFACTS } from './support/processes';
import { useProduct, type Product } from './support/product';

const TEST_MS = 60_000;

/** The whole product as a person meets it: the compiled sandbox, API and worker, and a real browser. */
describe('the demo page in a browser', () => {
  const getProduct = useProduct();
  let api: string;
  let redis: Product['redis'];
  let stream: string;
  let newPage: Product['newPage'];
  let untilRows: Product['untilRows'];
  const getCore = () => getProduct().core;
  beforeAll(() => ({ api, redis, stream, newPage, untilRows } = getProduct()));

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
});

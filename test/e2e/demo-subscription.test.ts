import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { INDIAN_DATE, textOf, untilTrue } from './support/page-text';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

describeNeeding(BROWSER, 'subscribing from the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);

  it(
    'subscribes Monthly by UPI AutoPay, runs one renewal in the sandbox, and cancels at cycle end',
    async () => {
      const { api, core, redis, stream, newPage, untilRows } = getProduct();
      const page = await newPage();
      await page.goto(`${api}/store/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await textOf(page, '#status', /Not premium/);

      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByRole('heading', { name: /^Subscribe: ₹199\.00 every month$/ }).waitFor();
      await page.getByLabel(/UPI AutoPay/).check();
      await page.getByRole('button', { name: 'Approve' }).click();

      await textOf(page, '#buy-message', /^Subscribed: Monthly premium for your account renews itself/);
      await textOf(page, '#status', /^Premium until/);
      const subscription = page.locator('#subscriptions li', { hasText: 'active' });
      await expect(textOf(page, '#subscriptions li', /paid 1/)).resolves.toMatch(
        new RegExp(`next charge ${INDIAN_DATE.source}`),
      );

      // The sandbox runs the next cycle now and sends the signed webhooks; the page shows the renewal.
      await subscription.getByRole('link', { name: 'Run next cycle (sandbox)' }).click();
      await page.getByRole('button', { name: 'Charge next cycle now' }).click();
      expect(page.url()).toBe(`${api}/store/dashboard`);
      await textOf(page, '#subscriptions li', /paid 2/);
      // Both charges are in Your orders, beside the one-off orders, though no order was made for them.
      await page.locator('#orders li.charge').nth(1).waitFor();
      await expect(page.locator('#orders li.charge').allTextContents()).resolves.toEqual([
        expect.stringMatching(/^Monthly subscription for your account pay_\w+₹199 · chargedInvoice$/),
        expect.stringMatching(/^Monthly subscription for your account pay_\w+₹199 · chargedInvoice$/),
      ]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'demo-subscription.png'), fullPage: true });

      await untilRows(
        "SELECT id FROM premium_grants WHERE source = 'subscription'",
        (rows) => rows.length === 2,
      );
      await untilRows('SELECT id FROM outbox', (rows) => rows.length === 0);
      const events = (await redis.xrange(stream, '-', '+')).map(([, fields]) => {
        return JSON.parse(fields[fields.indexOf('payload') + 1] ?? 'null') as PremiumEventPayload;
      });
      const unique = [...new Map(events.map((event) => [event.eventId, event])).values()];
      expect(unique.map(({ type, providerId, source }) => ({ type, providerId, source }))).toEqual([
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, source: 'subscription' },
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, source: 'subscription' },
      ]);

      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
      await textOf(
        page,
        '#subscriptions .message',
        /^Subscription cancelled: premium runs to the end of the paid cycle/,
      );
      await textOf(page, '#subscriptions li', new RegExp(`ends ${INDIAN_DATE.source}`));
      const [rows] = await core.sequelize.query('SELECT status, cancel_at_cycle_end FROM subscriptions');
      expect(rows).toEqual([{ status: 'active', cancel_at_cycle_end: true }]);
    },
    TEST_MS,
  );

  it(
    'says plainly that a renewal failed and what to do, while Razorpay retries and once it stops',
    async () => {
      const { api, newPage } = getProduct();
      const page = await newPage();
      await page.goto(`${api}/store/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      // A server of its own: the account's subscription of the test above still holds the account.
      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.getByLabel(/UPI AutoPay/).check();
      await page.getByRole('button', { name: 'Approve' }).click();
      await textOf(page, '#buy-message', /^Subscribed: Monthly premium for Demo Owned Server/);
      const subscription = page.locator('#subscriptions li', { hasText: 'Demo Owned Server' });
      await subscription.getByText('paid 1').waitFor();

      await subscription.getByRole('link', { name: 'Run next cycle (sandbox)' }).click();
      await page.getByRole('button', { name: 'Fail next charge' }).click();
      await expect(
        textOf(page, '#subscriptions li .renewal-failed', /^Your last renewal failed/),
      ).resolves.toMatch(
        /Razorpay retries the charge: update your payment method .* Premium stays until \d{1,2} [A-Z]/,
      );

      await subscription.getByRole('link', { name: 'Run next cycle (sandbox)' }).click();
      await page.getByRole('button', { name: 'Fail next charge' }).click();
      await expect(
        textOf(page, '#subscriptions li .renewal-failed', /^Your renewals failed/),
      ).resolves.toMatch(
        /Razorpay stopped retrying: premium ends \d{1,2} [A-Z].* Cancel this subscription, then subscribe again/,
      );

      // What it says to do can be done: a halted subscription is cancelled at once.
      await subscription.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
      await textOf(page, '#subscriptions .message', /^Subscription cancelled\.$/);
      await subscription.locator('.subscription-status', { hasText: 'cancelled' }).waitFor();
      await expect(subscription.locator('.renewal-failed').count()).resolves.toBe(0);
    },
    TEST_MS,
  );

  it('points a declined mandate at the Subscribe button, not at an order that does not exist', async () => {
    const { api, newPage } = getProduct();
    const page = await newPage();
    await page.goto(`${api}/store/`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Managed Server' });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('button', { name: 'Decline' }).click();

    // Said beside Subscribe, where the buyer pressed.
    await textOf(page, '#buy-message', /declined/);
    await expect(page.locator('#buy-message').textContent()).resolves.toBe(
      'Subscription not set up: The mandate was declined in the sandbox checkout. Nothing was charged: press Subscribe to try again.',
    );
    // What it points to is there, and leads back to the mandate page.
    await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Managed Server' });
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByRole('heading', { name: /^Subscribe: ₹199\.00 every month$/ }).waitFor();
  });

  it('loads the subscriptions section when store.js arrives after its first request', async () => {
    const { api, newPage } = getProduct();
    const page = await newPage();
    // store.js also keeps the token from the address bar; subscriptions.js may need it first.
    await page.route('**/store/store.js', async (route) => {
      await sleep(1500);
      await route.continue();
    });
    await page.goto(`${api}/store/`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await untilTrue(
      page,
      `document.querySelector('#subscribe') &&
        (!document.querySelector('#subscribe').disabled ||
          !document.querySelector('#subscriptions .message').hidden)`,
    );

    await expect(page.locator('#subscriptions .message').isHidden()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Subscribe' }).isEnabled()).resolves.toBe(true);
    await textOf(page, '#status', /premium/i);
  });
});

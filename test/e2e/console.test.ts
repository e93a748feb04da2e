import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { bindSlot } from '../../src/core/bundles';
import { claimJobs, enqueue, failJob } from '../../src/core/jobs';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

/** The seller's console as an operator meets it: the compiled sandbox, API and worker, a real browser. */
describeNeeding(BROWSER, "the seller's console in a browser", (browserPath) => {
  const getProduct = useProduct(browserPath, { OPERATOR_PROVIDER_IDS: DEMO_USER.id });
  const api = () => getProduct().api;
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  /** The demo user buys Monthly through the store and the sandbox's checkout, as a buyer would. */
  async function buyMonthly(page: Page): Promise<void> {
    await page.goto(`${api()}/store/`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.locator('#status', { hasText: 'Not premium' }).waitFor();
    await page.getByRole('button', { name: 'Buy for ₹199' }).click();
    await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.locator('#status', { hasText: /^Premium until/ }).waitFor();
  }

  async function latestOrder(): Promise<{ orderId: string }> {
    const [[order]] = (await getProduct().core.sequelize.query(
      'SELECT processor_order_id AS "orderId" FROM orders ORDER BY id DESC LIMIT 1',
    )) as [{ orderId: string }[], unknown];
    return order!;
  }

  async function botEvents(): Promise<Pick<PremiumEventPayload, 'type' | 'providerId' | 'source'>[]> {
    const entries = await getProduct().redis.xrange(getProduct().stream, '-', '+');
    const events = entries.map(([, fields]) => JSON.parse(fields[fields.indexOf('payload') + 1]!));
    return [...new Map(events.map((event: PremiumEventPayload) => [event.eventId, event])).values()].map(
      ({ type, providerId, source }) => ({ type, providerId, source }),
    );
  }

  it(
    'an operator signs in, reads the overview, finds the buyer and refunds the order; the bot hears the REMOVE',
    async () => {
      const page = await getProduct().newPage();
      await buyMonthly(page);

      await page.goto(`${api()}/console`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.waitForURL(`${api()}/console`);
      await page.getByText(`Signed in as ${DEMO_USER.username}`).waitFor();
      await page.locator('[data-figure="gross"]', { hasText: '₹199.00' }).waitFor();
      await expect(page.locator('[data-figure="net"]').textContent()).resolves.toBe('₹199.00');
      await expect(page.locator('[data-active="USER"]').textContent()).resolves.toBe('1');
      // Both charts drawn by uPlot, served from node_modules.
      await expect(page.locator('.chart canvas').count()).resolves.toBe(2);
      await shot(page, 'console-overview');

      await page.getByLabel('Discord id, username, order_… or sub_…').fill(DEMO_USER.username);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('heading', { name: `${DEMO_USER.username} (${DEMO_USER.id})` }).waitFor();
      await shot(page, 'console-user');

      await page.locator('#detail').getByRole('button', { name: 'Refund' }).first().click();
      await page.getByLabel('Reason').fill('Bought by mistake, asked for their money back');
      await page.getByRole('button', { name: 'Confirm' }).click();
      // The confirmation is in the order's row, where the Refund button was, and in sight, not at the
      // page's top (the sandbox's refund is processed at once, so the button is gone when it shows).
      const outcome = page.locator('#detail [role="status"]', { hasText: /^Refund order_\w+: done\./ });
      await outcome.waitFor();
      await expect(
        outcome.evaluate((line, height) => {
          const { top, bottom } = line.getBoundingClientRect();
          return { row: line.closest('li')?.getAttribute('data-row'), inSight: top >= 0 && bottom <= height };
        }, page.viewportSize()!.height),
      ).resolves.toEqual({ row: expect.stringMatching(/^order:order_\w+$/), inSight: true });
      await shot(page, 'console-action-done');

      await getProduct().untilRows(
        "SELECT actor FROM premium_grants WHERE kind = 'revoke'",
        (rows) => rows.length === 1,
      );
      await getProduct().untilRows('SELECT 1 FROM outbox', (rows) => rows.length === 0);
      const [revokes] = await getProduct().core.sequelize.query(
        "SELECT reason FROM premium_grants WHERE kind = 'revoke'",
      );
      expect(revokes).toEqual([{ reason: expect.stringMatching(/mistake|refund/i) }]);
      expect(await botEvents()).toEqual([
        { type: 'USER_PREMIUM_ADD', providerId: DEMO_USER.id, source: expect.any(String) },
        { type: 'USER_PREMIUM_REMOVE', providerId: DEMO_USER.id, source: expect.any(String) },
      ]);
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.locator('[data-figure="refunded"]', { hasText: '₹199.00' }).waitFor();
      await expect(page.locator('[data-figure="net"]').textContent()).resolves.toBe('₹0.00');
      await shot(page, 'console-refunded');

      // A 390 px phone: nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator('[data-figure="gross"]', { hasText: '₹199.00' }).waitFor();
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await shot(page, 'console-phone');

      // The API's log names the operator on each console request, the refund among them.
      const log = fs.readFileSync(getProduct().apiLog, 'utf8');
      const consoleRequests = log
        .split('\n')
        .filter((line) => line.includes('"msg":"console request"'))
        .map((line) => JSON.parse(line) as { operatorId: string; method: string; url: string });
      expect(consoleRequests).toContainEqual(
        expect.objectContaining({ operatorId: DEMO_USER.id, method: 'POST', url: '/api/console/refund' }),
      );

      // The buyer downloads the refund's credit note from the store, beside the order's invoice.
      await page.goto(`${api()}/store/dashboard`);
      const refunded = page.locator('#orders li', { hasText: 'refunded' });
      await refunded.getByRole('button', { name: 'Credit notes' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        refunded.getByRole('button', { name: /^Credit note CN\// }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^CN-\d{4}-000001\.pdf$/);
    },
    TEST_MS,
  );

  it(
    'a deep link opens its view, through the sign-in too, and Back returns to the view before',
    async () => {
      const page = await getProduct().newPage({ width: 1280, height: 900 });
      await buyMonthly(page);
      const order = await latestOrder();
      // An open dispute on it: the overview's row links to the order and to the buyer, by name.
      await getProduct().core.sequelize.query(
        `INSERT INTO payment_disputes (dispute_id, order_id, status, opened, created_at, updated_at)
         SELECT 'disp_E2eOpen', id, 'open', true, now(), now() FROM orders WHERE processor_order_id = $1`,
        { bind: [order.orderId] },
      );
      const orderUrl = `${api()}/console#/orders/${order.orderId}`;
      const orderHeading = page.getByRole('heading', { name: `Order ${order.orderId}` });
      const userUrl = `${api()}/console#/users/${DEMO_USER.id}`;
      const userHeading = page.getByRole('heading', { name: `${DEMO_USER.username} (${DEMO_USER.id})` });

      // Signed out, the order's address is kept through Discord's sign-in, which returns to /console.
      await page.goto(orderUrl);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await orderHeading.waitFor();
      expect(page.url()).toBe(orderUrl);
      await expect(page.locator('#overview').isHidden()).resolves.toBe(true);
      await shot(page, 'console-order-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await shot(page, 'console-order-390');
      await page.setViewportSize({ width: 1280, height: 900 });

      // Order → its buyer → the overview, then Back twice: the buyer, then the order.
      await page.locator('#detail').getByRole('link', { name: DEMO_USER.id }).click();
      await userHeading.waitFor();
      expect(page.url()).toBe(userUrl);
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.locator('[data-figure="gross"]', { hasText: '₹' }).waitFor();
      await expect(page.locator('#detail').isHidden()).resolves.toBe(true);
      const disputeRow = page.locator('#disputes li', { hasText: 'disp_E2eOpen' });
      await expect(disputeRow.getByRole('link', { name: order.orderId }).getAttribute('href')).resolves.toBe(
        `#/orders/${order.orderId}`,
      );
      await expect(
        disputeRow.getByRole('link', { name: DEMO_USER.global_name! }).getAttribute('href'),
      ).resolves.toBe(`#/users/${DEMO_USER.id}`);
      await shot(page, 'console-overview-links');
      await page.goBack();
      await userHeading.waitFor();
      expect(page.url()).toBe(userUrl);
      await page.goBack();
      await orderHeading.waitFor();
      expect(page.url()).toBe(orderUrl);

      // Opened directly, signed in: the user's address shows the user, not the overview.
      await page.goto('about:blank');
      await page.goto(userUrl);
      await userHeading.waitFor();
      await expect(page.locator('#overview').isHidden()).resolves.toBe(true);
    },
    TEST_MS,
  );

  it(
    'the catalog: adds a tier and a plan, prices, archives and restores it, each outcome beside its button',
    async () => {
      const page = await getProduct().newPage({ width: 1280, height: 900 });
      const detail = page.locator('#detail');
      const outcome = (text: string | RegExp) => detail.locator('[role="status"]', { hasText: text });
      const confirm = () => page.getByRole('button', { name: 'Confirm' }).click();

      // Its own address, kept through the sign-in as the other views' are.
      await page.goto(`${api()}/console#catalog`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Catalog' }).waitFor();
      await expect(page.locator('#overview').isHidden()).resolves.toBe(true);
      await detail.locator('li', { hasText: /^premium Premium · rank 1/ }).waitFor();

      await page.getByRole('button', { name: 'Add tier' }).click();
      await page.getByLabel('Code (lowercase').fill('pro');
      await page.getByLabel('Name buyers read').fill('Pro');
      await page.getByLabel('Features, one key=value').fill('music=true\nqueue=500');
      await confirm();
      const added = outcome('Added tier pro (Pro), rank 2: music=true queue=500.');
      await added.waitFor();
      // Beside the button it came from, in sight.
      await expect(
        added.evaluate((line) => line.previousElementSibling?.textContent?.includes('Add tier')),
      ).resolves.toBe(true);

      // The catalog's refusal stays in the dialog, and nothing is added.
      await page.getByRole('button', { name: 'Add tier' }).click();
      await page.getByLabel('Code (lowercase').fill('pro');
      await page.getByLabel('Name buyers read').fill('Again');
      await confirm();
      await page.locator('#action-error', { hasText: 'a tier "pro" exists already' }).waitFor();
      await page.getByRole('button', { name: 'Back' }).click();

      await page.getByRole('button', { name: 'Add plan' }).click();
      await page.getByLabel('Code (letters').fill('ProWeek');
      await page.getByLabel('Tier', { exact: true }).selectOption('pro');
      await page.getByLabel('Sold for').selectOption('USER');
      await page.getByLabel('Days a purchase gives').fill('7');
      await page.getByLabel('Price in INR').fill('49.50');
      await confirm();
      await outcome('Added plan ProWeek: ₹49.50 for 7 days of pro, on sale now.').waitFor();

      const row = detail.locator('li', { hasText: /^ProWeek/ });
      await row.getByRole('button', { name: 'Set price' }).click();
      await page.getByLabel('New price in INR').fill('59');
      await confirm();
      await outcome(
        'ProWeek: ₹49.50 → ₹59.00. Orders already created and running subscriptions keep their price.',
      ).waitFor();
      await shot(page, 'console-catalog');

      await row.getByRole('button', { name: 'Archive' }).click();
      await confirm();
      // The button went with the plan's sale: the outcome is in its row.
      await row.locator('[role="status"]', { hasText: 'Archived ProWeek' }).waitFor();
      await expect(row.getByRole('button', { name: 'Archive' }).count()).resolves.toBe(0);
      // Nothing is sold of an archived plan, at any price.
      await expect(row.getByRole('button', { name: 'Set price' }).count()).resolves.toBe(0);

      await row.getByRole('button', { name: 'Put back on sale' }).click();
      await confirm();
      await row.locator('[role="status"]', { hasText: 'ProWeek is on sale again at ₹59.00.' }).waitFor();
      await row.getByRole('button', { name: 'Archive' }).click();
      await confirm();
      await row.locator('[role="status"]', { hasText: 'Archived ProWeek' }).waitFor();

      const tier = detail.locator('li', { hasText: /^pro Pro · rank 2/ });
      await tier.getByRole('button', { name: 'Rename or re-rank' }).click();
      await page.getByLabel('Name buyers read').fill('Pro Max');
      await confirm();
      await outcome('Tier pro is now Pro Max, rank 2.').waitFor();

      const [plans] = await getProduct().core.sequelize.query(
        "SELECT tier, scope, days, price_paise, status FROM plans WHERE code = 'ProWeek'",
      );
      expect(plans).toEqual([
        { tier: 'pro', scope: 'USER', days: 7, price_paise: 5_900, status: 'archived' },
      ]);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await shot(page, 'console-catalog-390');
    },
    TEST_MS,
  );

  it(
    'recent sales, customers and a CSV download; the charts speak Indian dates and rupees',
    async () => {
      const page = await getProduct().newPage({ width: 1280, height: 900 });
      await buyMonthly(page);
      const order = await latestOrder();
      const buyer = `${DEMO_USER.global_name} (${DEMO_USER.id})`;

      // Its own address, through the sign-in.
      await page.goto(`${api()}/console#/sales`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Sales', exact: true }).waitFor();
      const sale = page.locator('#sales li', { hasText: order.orderId });
      await expect(sale.textContent()).resolves.toMatch(
        new RegExp(`${buyer.replace(/[()]/g, '\\$&')} · order_\\w+ · Monthly · ₹199.00 · paid$`),
      );
      await expect(sale.getByRole('link', { name: buyer }).getAttribute('href')).resolves.toBe(
        `#/users/${DEMO_USER.id}`,
      );

      // The financial year preset, then the orders' download: a CSV attachment of this order.
      const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' });
      const fyStart =
        Number(today.slice(5, 7)) >= 4 ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
      await page.getByRole('button', { name: /^This FY/ }).click();
      await expect(page.getByLabel('From').inputValue()).resolves.toBe(`${fyStart}-04-01`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Orders (CSV)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`orders-${fyStart}-04-01-to-${today}.csv`);
      const csv = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
      expect(csv[0]).toMatch(/^order_id,state,created_at,paid_at,buyer_id,buyer_username,/);
      expect(csv[1]).toMatch(
        new RegExp(`^${order.orderId},paid,.*,${DEMO_USER.id},${DEMO_USER.username},USER,,Monthly,199,`),
      );
      await shot(page, 'console-sales-1280');

      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('heading', { name: 'Customers' }).waitFor();
      await expect(page.locator('#customers li').first().textContent()).resolves.toContain(
        `${buyer} · ₹199.00 lifetime value · Monthly · 1 payment(s)`,
      );
      await shot(page, 'console-customers-1280');
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await shot(page, 'console-customers-390');
      await page.getByRole('link', { name: 'Sales' }).click();
      await page.getByRole('heading', { name: 'Sales', exact: true }).waitFor();
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await shot(page, 'console-sales-390');
      await page.setViewportSize({ width: 1280, height: 900 });

      // The charts: a legend with names and figures before any hover; a day's figures as "27 Nov".
      await page.getByRole('link', { name: 'Overview' }).click();
      const legend = page.locator('[data-legend="revenue-chart"]');
      await expect(legend.textContent()).resolves.toBe('90 days:Gross ₹199.00Net ₹199.00');
      await expect(page.locator('[data-legend="mrr-chart"]').textContent()).resolves.toBe('Now:MRR ₹0.00');
      const plot = (await page.locator('#revenue-chart .u-over').boundingBox())!;
      await page.mouse.move(plot.x + plot.width - 2, plot.y + plot.height / 2);
      const day = new Date().toLocaleDateString('en-IN', {
        day: 'numeric',
        month: 'short',
        timeZone: 'Asia/Kolkata',
      });
      await expect(legend.textContent()).resolves.toBe(`${day}:Gross ₹199.00Net ₹199.00`);
      await shot(page, 'console-charts');
      expect(day).toMatch(/^\d{1,2} [A-Z][a-z]{2}$/);
      // No subscription was live at the month's start: churn says none, and what it counts.
      await expect(page.locator('[data-figure="churn"]').textContent()).resolves.toBe('none');

      // The refund dialog: Back plain, Confirm red.
      await page.goto(`${api()}/console#/orders/${order.orderId}`);
      await page.locator('#detail').getByRole('button', { name: 'Refund' }).click();
      const colour = (name: string) =>
        page
          .getByRole('button', { name })
          .evaluate((button) => button.ownerDocument.defaultView!.getComputedStyle(button).backgroundColor);
      await expect(colour('Back')).resolves.toBe('rgb(255, 255, 255)');
      await expect(colour('Confirm')).resolves.toBe('rgb(180, 35, 24)');
      await page.getByRole('button', { name: 'Back' }).click();
      // The order's buyer by Discord username beside the id.
      await expect(
        page
          .locator('#detail')
          .getByRole('link', { name: `${DEMO_USER.username} (${DEMO_USER.id})` })
          .count(),
      ).resolves.toBe(1);
    },
    TEST_MS,
  );

  it(
    'tells someone who is not an operator so, with a way to sign in again',
    async () => {
      const page = await getProduct().newPage({ width: 390, height: 844 });
      await page.goto(`${api()}/console?error=not_an_operator`);
      await page.getByText('That Discord account is not an operator of this service').waitFor();
      await page.getByRole('link', { name: 'Sign in with Discord' }).waitFor();
      expect(page.url()).toBe(`${api()}/console`);
      await expect(page.locator('#signed-in').isHidden()).resolves.toBe(true);
      await shot(page, 'console-not-an-operator');
    },
    TEST_MS,
  );
  it(
    "the user view lists the buyer's bundles with each bound guild, when bound and until when",
    async () => {
      const page = await getProduct().newPage({ width: 1280, height: 900 });
      await buyMonthly(page);
      await page.goto(`${api()}/console#/users/${DEMO_USER.id}`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: `${DEMO_USER.username} (${DEMO_USER.id})` }).waitFor();
      // A two-slot bundle of the demo user, one slot bound by an operator.
      const { sequelize } = getProduct().core;
      const [[bundle]] = (await sequelize.query(
        `INSERT INTO bundles (buyer_user_id, plan_code, tier, slots, days, ends_at)
           SELECT id, 'Duo', 'premium', 2, 30, now() + interval '30 days' FROM users WHERE provider_id = $1
           RETURNING id`,
        { bind: [DEMO_USER.id] },
      )) as [{ id: string }[], unknown];
      const guildId = '345678901234567890';
      const by = { kind: 'operator', actor: 'e2e' } as const;
      await bindSlot(sequelize, { bundleId: Number(bundle!.id), guildId, by });

      await page.reload();
      const row = page.locator(`[data-row="bundle:${bundle!.id}"]`);
      await row.waitFor();
      await expect(row.textContent()).resolves.toMatch(/^#\d+ Duo \(premium\) · 1 of 2 slots bound · ends /);
      const bound = row.locator(`[data-row="bundle:${bundle!.id}:${guildId}"]`);
      await expect(bound.getByRole('link', { name: guildId }).getAttribute('href')).resolves.toBe(
        `#/guilds/${guildId}`,
      );
      await expect(bound.textContent()).resolves.toMatch(/bound \d{4}-\d\d-\d\d \d\d:\d\d IST · until /);
      await shot(page, 'console-user-bundles');
    },
    TEST_MS,
  );
  it(
    'the jobs view shows a dead job with its last error, and Retry runs it again',
    async () => {
      const { sequelize } = getProduct().core;
      // A kind no handler of the running worker takes: it stays as the console leaves it.
      await sequelize.transaction((transaction) => enqueue('e2e_check', { n: 1 }, {}, transaction));
      const [job] = await claimJobs(sequelize, 'e2e_check', { limit: 1, leaseMs: 60_000 });
      await failJob(sequelize, job!, {
        error: 'the far end answered 503',
        retryInMs: 0,
        counts: true,
        maxAttempts: 1,
      });

      const page = await getProduct().newPage({ width: 1280, height: 900 });
      await page.goto(`${api()}/console#/jobs`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      const row = page.locator(`[data-row="jobs:${job!.id}:retry"]`);
      await expect(row.textContent()).resolves.toMatch(
        new RegExp(
          `^#${job!.id} · e2e_check · dead .+ · 1 failed attempt\\(s\\)the far end answered 503Retry$`,
        ),
      );
      await shot(page, 'console-jobs');

      await row.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`Job ${job!.id} is due now: the worker runs it next.`).waitFor();
      await expect(row.textContent()).resolves.toMatch(/ · e2e_check · due .+ · 0 failed attempt\(s\)/);
    },
    TEST_MS,
  );
});

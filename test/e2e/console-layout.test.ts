import path from 'node:path';
import type { Page } from 'playwright-core';
import { addPlan } from '../../src/core/catalog';
import { addEndpoint } from '../../src/core/outgoing-webhooks';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { seriousViolations } from './support/axe';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

/** The console on a phone and a laptop: nothing overlaps, nothing is out of a keyboard's reach, no page is wider. */
describeNeeding(BROWSER, "the seller's console at 390 and 1280 px", (browserPath) => {
  const getProduct = useProduct(browserPath, { OPERATOR_PROVIDER_IDS: DEMO_USER.id });

  async function signInToConsole(page: Page): Promise<void> {
    const { api } = getProduct();
    await page.goto(`${api}/console`);
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(`${api}/console`);
  }

  it.each([390, 1280])(
    'at %i px: the tier and plan tables sit apart, fit or scroll within reach, no serious axe violation',
    async (width) => {
      const { core } = getProduct();
      // A lakh-sized sale (as the walk had), so that each table's figures have their real width.
      await addPlan(core.sequelize, null, {
        code: `Lifetime${width}`,
        name: 'Lifetime',
        tier: 'premium',
        scope: 'USER',
        days: 3650,
        price: 149_999,
      });
      const page = await getProduct().newPage({ width, height: 844 });
      await page.goto(`${getProduct().api}/store/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.locator('#status', { hasText: 'premium' }).waitFor();
      await page.locator(`#plans input[value="Lifetime${width}"]`).check();
      await page.getByRole('button', { name: 'Buy for ₹1,49,999' }).click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.locator('#buy-message', { hasText: 'Payment verified' }).waitFor();

      await signInToConsole(page);
      await page.locator('#revenue-by-plan tfoot', { hasText: '₹1,49,999.00' }).waitFor();
      const boxes = await Promise.all(
        ['#revenue-by-tier', '#revenue-by-plan'].map(async (id) => page.locator(id).boundingBox()),
      );
      const [tier, plan] = boxes.map((box) => box!);
      const apart =
        tier!.x + tier!.width <= plan!.x ||
        plan!.x + plan!.width <= tier!.x ||
        tier!.y + tier!.height <= plan!.y ||
        plan!.y + plan!.height <= tier!.y;
      expect(apart).toBe(true);
      // Each table fits its box, or its box scrolls and a keyboard can reach it (axe checks that too).
      const overflowing = await page.evaluate(`[...document.querySelectorAll('table.split')].map((table) => {
        const box = table.parentElement;
        return { id: table.id, fits: box.scrollWidth <= box.clientWidth, focusable: box.tabIndex >= 0 };
      })`);
      for (const table of overflowing as { id: string; fits: boolean; focusable: boolean }[])
        expect(table.fits || table.focusable).toBe(true);
      if (width === 1280)
        expect(overflowing).toEqual([
          expect.objectContaining({ fits: true }),
          expect.objectContaining({ fits: true }),
          expect.objectContaining({ id: 'revenue-by-purchase', fits: true }),
        ]);
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `console-overview-${width}.png`), fullPage: true });
    },
    TEST_MS,
  );

  /** Every view of the console but the overview (checked above), as an operator reaches it, its heading and
   * the button of a dialog it opens (axe sees a dialog's fields only while it is open). */
  const VIEWS = [
    ['#/catalog', 'Catalog'],
    ['#/offers', 'Offers'],
    ['#/sales', 'Sales'],
    ['#/customers', 'Customers'],
    ['#/jobs', 'Jobs'],
    ['#/webhooks', 'Webhooks', 'Add an endpoint'],
    ['#/settings', 'Settings'],
    [`#/users/${DEMO_USER.id}`, `${DEMO_USER.username} (${DEMO_USER.id})`, 'Grant USER premium'],
  ];

  /** What sticks out past the right edge of the screen, named as a selector. */
  const STICKING_OUT = `[...document.querySelectorAll('#detail *')]
    .filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
    .map((node) => node.tagName.toLowerCase() + (node.id ? '#' + node.id : '') + (node.className ? '.' + node.className : ''))`;

  it.each([390, 1280])(
    'at %i px: no serious axe violation on any page of the console, and nothing wider than the screen',
    async (width) => {
      const { core } = getProduct();
      await addEndpoint(
        core.sequelize,
        { url: `https://hooks.example.com/${width}`, actor: 'e2e' },
        core.config.outgoingWebhooks,
      );
      const page = await getProduct().newPage({ width, height: 844 });
      // The demo user signs in to the store first, so that the user view has someone to show.
      await page.goto(`${getProduct().api}/store/`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.locator('#status', { hasText: 'premium' }).waitFor();
      await signInToConsole(page);

      const found: Record<string, unknown> = {};
      for (const [view, heading, opens] of VIEWS) {
        await page.evaluate(`location.hash = '${view}'`);
        await page.locator('#detail').getByRole('heading', { name: heading, exact: true }).waitFor();
        const violations = await seriousViolations(page);
        const outside = (await page.evaluate(STICKING_OUT)) as string[];
        if (opens) {
          await page.getByRole('button', { name: opens }).click();
          violations.push(...(await seriousViolations(page)));
          await page.getByRole('button', { name: 'Back' }).click();
        }
        if (violations.length > 0 || outside.length > 0) found[view!] = { violations, outside };
      }
      expect(found).toEqual({});
    },
    TEST_MS,
  );
});

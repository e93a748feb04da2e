import path from 'node:path';
import type { Page } from 'playwright-core';
import { addPlan } from '../../src/core/catalog';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { seriousViolations } from './support/axe';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

/** The console's overview on a phone and a laptop: nothing overlaps, nothing is out of a keyboard's reach. */
describeNeeding(BROWSER, "the seller's console overview at 390 and 1280 px", (browserPath) => {
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
        ]);
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `console-overview-${width}.png`), fullPage: true });
    },
    TEST_MS,
  );
});

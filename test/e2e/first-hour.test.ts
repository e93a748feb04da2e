import path from 'node:path';
import { seedPlan } from '../support/fixtures';
import type { Page } from 'playwright-core';
import { createCodes } from '../../src/core/codes/create-codes';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { INDIAN_DATE, textOf } from './support/page-text';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';
import { signIn as signInToStore } from './support/sign-in';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;
const WIDTHS = [1280, 390] as const;

/** The first hour of a newcomer, at a desktop's and a phone's width, with a screenshot of each. */
describeNeeding(BROWSER, 'the store at 1280 and 390 px', (browserPath) => {
  const getProduct = useProduct(browserPath);

  const signIn = (page: Page) => signInToStore(page, getProduct().api);

  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

  it.each(WIDTHS)(
    'at %i px: a declined payment shows failed and is paid again; the bot event is in view after the purchase',
    async (width) => {
      const page = await getProduct().newPage({ width, height: 844 });
      await signIn(page);
      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      // The sandbox's checkout: a margin around its card, its buttons of one width.
      const [card, pay, fail] = await Promise.all(
        ['main', 'button[value=pay]', 'button[value=fail]'].map((selector) => box(page, selector)),
      );
      expect(card!.x).toBeGreaterThan(0);
      expect(card!.x + card!.width).toBeLessThan(width);
      expect(Math.round(pay!.width)).toBe(Math.round(fail!.width));
      await page.screenshot({ path: path.join(ARTIFACTS, `checkout-${width}.png`) });
      await page.getByRole('button', { name: 'Fail' }).click();

      await expect(textOf(page, '#buy-message', /Payment failed/)).resolves.toBe(
        'Payment failed: The payment was declined in the sandbox checkout. Nothing was charged: pay again from Your orders.',
      );
      const order = page.locator('#orders li', { hasText: 'payment failed' });
      await order.waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, `declined-${width}.png`), fullPage: true });
      await order.getByRole('button', { name: 'Check again' }).click();
      await expect(textOf(page, '#orders .message', /failed/)).resolves.toMatch(
        /^Your last payment of this order failed \(The payment was declined in the sandbox checkout\)\. Nothing was charged: pay again\.$/,
      );
      await page
        .locator('#orders li', { hasText: 'payment failed' })
        .getByRole('button', { name: 'Pay again' })
        .click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await textOf(page, '#status', new RegExp(`^Premium until ${INDIAN_DATE.source}$`));

      // Back from the checkout at the top of the page: the bot's event shows without scrolling.
      const event = page.locator('#events li', { hasText: 'USER_PREMIUM_ADD' });
      await event.waitFor();
      const shown = (await event.boundingBox())!;
      expect(shown.y + shown.height).toBeLessThanOrEqual(844);
      await textOf(page, '#orders li', /Monthly for your account.*paid/);
      expect(await page.locator('#orders li', { hasText: 'payment failed' }).count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, `purchase-${width}.png`) });
    },
    TEST_MS,
  );

  it.each(WIDTHS)(
    'at %i px: the Custom price stays on its line, the code input is as wide as the select, notices name servers',
    async (width) => {
      const { codes } = await createCodes(getProduct().core.sequelize, {
        plan: seedPlan('Monthly'),
        count: 1,
        expiresAt: null,
        actor: 'e2e',
        reason: 'giveaway',
      });
      const page = await getProduct().newPage({ width, height: 844 });
      await signIn(page);

      // The price shares one line with the words before it, never a line of its own.
      const [words, price] = await Promise.all(
        ['.price[data-plan=Custom]', '.price[data-plan=Custom]'].map((selector, index) =>
          box(page, index === 0 ? `label:has(${selector}) .nowrap` : selector),
        ),
      );
      expect(words!.height).toBeLessThan(1.5 * price!.height);
      expect(words!.x).toBeLessThan(price!.x);
      const [code, who] = await Promise.all(
        ['#redeem input[name=code]', '#redeem select'].map((selector) => box(page, selector)),
      );
      expect(Math.round(code!.width)).toBe(Math.round(who!.width));
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

      await page.getByLabel('Code', { exact: true }).fill(codes[0]!.code);
      await page.getByLabel('Who gets it').selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByRole('button', { name: 'Redeem' }).click();
      await expect(textOf(page, '#redeem-message', /Code redeemed/)).resolves.toMatch(
        new RegExp(
          `^Code redeemed: 30 days of Monthly premium for Demo Owned Server, active until ${INDIAN_DATE.source}\\.$`,
        ),
      );
      await page.getByLabel('Move to').selectOption({ label: 'Demo Managed Server' });
      await page.getByRole('button', { name: 'Move' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
      await expect(textOf(page, '#transfer-message', /Moved/)).resolves.toMatch(
        new RegExp(
          `^Moved \\d+ days of premium from Demo Owned Server to Demo Managed Server: active there until ${INDIAN_DATE.source}\\.$`,
        ),
      );
      await page.screenshot({ path: path.join(ARTIFACTS, `self-service-${width}.png`), fullPage: true });
    },
    TEST_MS,
  );
});

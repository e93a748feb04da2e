import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_USER } from '../../src/sandbox';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { describeNeeding } from '../support/requirements';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

/** The seller sets up in the console's #/settings; the store follows without a restart. */
describeNeeding(BROWSER, "the seller's settings in a browser", (browserPath) => {
  const getProduct = useProduct(browserPath, { OPERATOR_PROVIDER_IDS: DEMO_USER.id });
  const api = () => getProduct().api;
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  it(
    'renames the store and turns GST on, a bad GSTIN refused in the form; the store shows them at once',
    async () => {
      const page = await getProduct().newPage();
      await page.goto(`${api()}/console#/settings`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.locator('#settings-status', { hasText: 'off (receipts)' }).waitFor();

      await page.getByLabel('STORE_NAME').fill('Melody Premium');
      await page.getByRole('button', { name: 'Save store' }).click();
      await page.locator('#setting-changes', { hasText: 'STORE_NAME: (unset) → Melody Premium' }).waitFor();

      const gst = page.locator('form[data-group="GST"]');
      await page.getByLabel('SELLER_NAME').fill('Melody Bots LLP');
      await page.getByLabel('SELLER_ADDRESS').fill('12 MG Road, Bengaluru 560001');
      await page.getByLabel('SELLER_GSTIN').fill('29AAGCB7383J1Z5');
      await page.getByRole('button', { name: 'Save gst' }).click();
      await gst.locator('.outcome', { hasText: /^SELLER_GSTIN: / }).waitFor();
      await shot(page, 'settings-refused');

      await page.getByLabel('SELLER_GSTIN').fill('29AAGCB7383J1Z4');
      await page.getByRole('button', { name: 'Save gst' }).click();
      await page.locator('#settings-status', { hasText: 'on, GSTIN 29AAGCB7383J1Z4' }).waitFor();
      await shot(page, 'settings-saved');

      await page.goto(`${api()}/store/`);
      await page.locator('#store-name', { hasText: 'Melody Premium' }).waitFor();
      const config = await (await fetch(`${api()}/store/config.json`)).json();
      expect(config).toMatchObject({ name: 'Melody Premium', taxInvoices: true });
      // What was on when the API started, in its log.
      expect(fs.readFileSync(getProduct().apiLog, 'utf8')).toContain(
        'settings: payments sandbox keys, GST off (receipts), roles off, notices off',
      );
    },
    TEST_MS,
  );
});

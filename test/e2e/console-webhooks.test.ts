import path from 'node:path';
import { WEBHOOK_EVENTS } from '../../src/core/outgoing-webhooks';
import { DEMO_USER } from '../../src/sandbox';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

describeNeeding(BROWSER, "the seller's webhooks in the console", (browserPath) => {
  const getProduct = useProduct(browserPath, { OPERATOR_PROVIDER_IDS: DEMO_USER.id });

  it(
    'an operator adds an endpoint and sees its secret once; a reload shows the endpoint without it',
    async () => {
      const { api } = getProduct();
      const page = await getProduct().newPage({ width: 390, height: 844 });
      await page.goto(`${api}/console#/webhooks`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await page.getByText('No webhook endpoints.').waitFor();
      await expect(page.getByRole('link', { name: 'Jobs page' }).getAttribute('href')).resolves.toBe(
        '#/jobs',
      );

      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByLabel('URL (https; plain http outside production)').fill('ftp://hooks.example.com/x');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.locator('#action-error', { hasText: 'url: must be an https: (or http:) URL' }).waitFor();
      await page
        .getByLabel('URL (https; plain http outside production)')
        .fill('https://hooks.example.com/premium');
      await page.getByRole('button', { name: 'Confirm' }).click();

      const outcome = page.getByText(/Endpoint \d+ added\. Its secret, shown this once/);
      await outcome.waitFor();
      const secret = /whsec_[A-Za-z0-9+/]+=*/.exec((await outcome.textContent())!)![0];
      const [[stored]] = (await getProduct().core.sequelize.query(
        'SELECT id, secret FROM webhook_endpoints ORDER BY id DESC LIMIT 1',
      )) as [{ id: string; secret: string }[], unknown];
      expect(secret).toBe(stored!.secret);
      const row = page.locator(`[data-row="webhooks:${stored!.id}:remove"]`);
      await expect(row.textContent()).resolves.toMatch(
        new RegExp(`^#${stored!.id} · https://hooks.example.com/premium · ${WEBHOOK_EVENTS.join(', ')} · on`),
      );
      // The secret, one long word, wraps on a phone rather than widening the page.
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks.png'), fullPage: true });

      await page.reload();
      await row.getByText('No delivery tried yet.').waitFor();
      await expect(page.locator('#detail').textContent()).resolves.not.toContain(secret);

      await row.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`Endpoint ${stored!.id} removed: nothing more is delivered to it.`).waitFor();
      await expect(row.textContent()).resolves.toMatch(/ · removed \d{4}-/);
    },
    TEST_MS,
  );
});

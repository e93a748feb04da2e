import path from 'node:path';
import type { Page } from 'playwright-core';
import { issueSessionToken } from '../../src/core/session';
import { DEMO_USER, SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { describeNeeding } from '../support/requirements';
import { textOf } from './support/page-text';
import { useProduct } from './support/product';
import { signIn } from './support/sign-in';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds.
jest.setTimeout(60_000);

const TEST_MS = 90_000;
const RECEIPT = 'Thank you {buyer}! {amount} for {plan} ({reference}) is paid. Your invoice: {link}';

/** The seller writes the receipt in the console; the buyer reads it by DM and by email, in the sandbox. */
describeNeeding(BROWSER, "the buyer's messages in a browser", (browserPath) => {
  const getProduct = useProduct(browserPath, {
    OPERATOR_PROVIDER_IDS: DEMO_USER.id,
    DISCORD_BOT_TOKEN: SANDBOX_BOT_TOKEN,
  });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  it(
    'previews and saves a receipt text; a purchase then sends it by DM and email, shown side by side',
    async () => {
      const { api, sandbox } = getProduct();
      const page = await getProduct().newPage();
      await page.goto(`${api}/console#/settings`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Messages to buyers' }).waitFor();

      await page.getByLabel('receipt (MESSAGE_RECEIPT)').fill(RECEIPT);
      await page.getByRole('button', { name: 'Preview receipt' }).click();
      await page
        .locator('#preview-receipt', {
          hasText: `Thank you asha! ₹199.00 for premium Monthly (30 days) (order_Sample0000001) is paid. Your invoice: ${api}/store/dashboard`,
        })
        .waitFor();
      await page.getByRole('button', { name: 'Preview lapsed' }).click();
      await page.locator('#preview-lapsed', { hasText: 'You are welcome back any time' }).waitFor();
      await shot(page, 'buyer-messages-console');
      await page.getByRole('button', { name: 'Save messages' }).click();
      await page.locator('#setting-changes', { hasText: 'MESSAGE_RECEIPT: (unset) →' }).waitFor();

      // The buyer gives an address and turns refunds' messages off in the store; receipts stay on.
      const store = await getProduct().newPage();
      await signIn(store, api);
      await expect(store.getByLabel('A receipt for each payment (always sent)').isDisabled()).resolves.toBe(
        true,
      );
      await store.getByLabel('A refund was made').uncheck();
      await store.getByLabel('Email for the same messages (optional)').fill('buyer@mail.example');
      await store.getByRole('button', { name: 'Save message choices' }).click();
      await textOf(store, '#messages', /Saved\./);
      const token = issueSessionToken(getProduct().core.config.jwtSecret, {
        providerId: DEMO_USER.id,
        username: DEMO_USER.username,
        avatar: DEMO_USER.avatar,
      });
      const saved = await fetch(`${api}/api/me/messages`, { headers: { authorization: `Bearer ${token}` } });
      await expect(saved.json()).resolves.toMatchObject({
        messages: { receipt: true, refund: false, expiring: true },
        email: 'buyer@mail.example',
      });
      await store.getByRole('button', { name: 'Buy for ₹199' }).click();
      await store.getByRole('button', { name: 'Pay', exact: true }).click();
      await textOf(store, '#buy-message', /Payment verified/);

      await store.goto(`${sandbox}/sandbox/messages`);
      const dm = store.locator('article', { hasText: `DM to ${DEMO_USER.id}` });
      const mail = store.locator('article', { hasText: 'Premium: Your receipt' });
      for (let tries = 0; (await dm.count()) === 0 || (await mail.count()) === 0; tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await store.reload();
      }
      const text = (await dm.locator('pre').textContent())!;
      expect(text).toMatch(
        new RegExp(
          `^Thank you ${DEMO_USER.username}! ₹199\\.00 for premium Monthly \\(30 days\\) \\(order_\\w+\\) is paid\\.`,
        ),
      );
      await expect(mail.locator('pre').textContent()).resolves.toBe(text);
      await expect(mail.locator('.meta').textContent()).resolves.toContain('→ buyer@mail.example');
      await shot(store, 'buyer-messages-sandbox');
    },
    TEST_MS,
  );
});

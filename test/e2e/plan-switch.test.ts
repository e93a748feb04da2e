import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { textOf } from './support/page-text';
import { useProduct } from './support/product';
import { subscribedInStore } from './support/subscribe';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

describeNeeding(BROWSER, 'switching a subscription’s plan from the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);

  it(
    'walks a UPI subscriber through the new mandate: the old one ends at its cycle end, the new one starts there',
    async () => {
      const { api, core, newPage } = getProduct();
      const page = await newPage();
      const subscription = await subscribedInStore(page, api, /UPI AutoPay/);

      await subscription.getByRole('button', { name: 'Change to Yearly' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.textContent()).resolves.toMatch(
        /Change to Yearly\? Nothing changes until this paid cycle ends\. Yearly is charged ₹[\d,]+(\.\d\d)? a cycle from \d{1,2} [A-Z]/,
      );
      await dialog.getByRole('button', { name: 'Change plan' }).click();
      await expect(dialog.textContent()).resolves.toMatch(/UPI AutoPay, which cannot change its amount/);
      await dialog.getByRole('button', { name: 'Authorise new mandate' }).click();
      await page.getByLabel(/UPI AutoPay/).check();
      await page.getByRole('button', { name: 'Approve' }).click();

      await textOf(page, '#buy-message', /^Subscribed: Yearly premium for your account renews itself/);
      await textOf(page, '#subscriptions li', /last paid cycle ends/);
      const [rows] = await core.sequelize.query(
        'SELECT plan_type, status, cancel_at_cycle_end, replaced_by IS NOT NULL AS replaced, start_at FROM subscriptions ORDER BY id',
      );
      const [old, replacement] = rows as { start_at: Date | null }[];
      expect(old).toMatchObject({
        plan_type: 'Monthly',
        status: 'active',
        cancel_at_cycle_end: true,
        replaced: true,
      });
      expect(replacement).toMatchObject({ plan_type: 'Yearly', status: 'authenticated', replaced: false });
      const [ends] = await core.sequelize.query(
        "SELECT current_end FROM subscriptions WHERE plan_type = 'Monthly'",
      );
      const currentEnd = (ends as { current_end: Date }[])[0]!.current_end;
      expect(replacement!.start_at).toEqual(currentEnd);
    },
    TEST_MS,
  );
});

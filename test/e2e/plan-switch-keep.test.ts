import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { textOf } from './support/page-text';
import { useProduct } from './support/product';
import { subscribedInStore } from './support/subscribe';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

describeNeeding(BROWSER, 'keeping a subscription’s plan from the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);

  it(
    'lets a card subscriber keep their plan while a switch is pending: Razorpay’s scheduled change is cancelled',
    async () => {
      const { api, core, newPage } = getProduct();
      const page = await newPage();
      const subscription = await subscribedInStore(page, api, /Card mandate/);
      await subscription.getByRole('button', { name: 'Change to Yearly' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Change plan' }).click();
      await textOf(page, '#subscriptions .message', /Switched to Yearly/);

      await subscription.getByRole('button', { name: 'Keep Monthly' }).click();
      await expect(dialog.textContent()).resolves.toMatch(
        /Keep Monthly\? The change to Yearly when this cycle ends is cancelled/,
      );
      await dialog.getByRole('button', { name: 'Keep Monthly' }).click();
      await textOf(page, '#subscriptions .message', /Kept Monthly: the change of plan is cancelled\./);
      const [rows] = await core.sequelize.query('SELECT plan_type, pending_plan_type FROM subscriptions');
      expect(rows).toEqual([{ plan_type: 'Monthly', pending_plan_type: null }]);
      await subscription.getByRole('button', { name: 'Change to Yearly' }).waitFor();
      await expect(subscription.getByRole('button', { name: 'Keep Monthly' }).count()).resolves.toBe(0);
    },
    TEST_MS,
  );
});

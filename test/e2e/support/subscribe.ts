import type { Locator, Page } from 'playwright-core';
import { signIn } from './sign-in';

/**
 * Signs in to the store and subscribes the account to its default plan with the mandate labelled
 * `mandate` at the sandbox's Checkout; the subscription's row once its first charge is recorded.
 */
export async function subscribedInStore(page: Page, api: string, mandate: RegExp): Promise<Locator> {
  await signIn(page, api);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.getByLabel(mandate).check();
  await page.getByRole('button', { name: 'Approve' }).click();
  const subscription = page.locator('#subscriptions li', { hasText: 'active' });
  await subscription.getByText('paid 1').waitFor();
  return subscription;
}

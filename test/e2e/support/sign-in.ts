import type { Page } from 'playwright-core';
import { textOf } from './page-text';

/** Opens the store and signs in through the sandbox's Discord consent page, back on the dashboard. */
export async function signIn(page: Page, api: string): Promise<void> {
  await page.goto(`${api}/store/`);
  await page.getByRole('link', { name: 'Sign in with Discord' }).click();
  await page.getByRole('button', { name: 'Authorize' }).click();
  await textOf(page, '#status', /premium/i);
}

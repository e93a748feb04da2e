import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';

/** The text of the first `selector` whose text matches `pattern`, once one is on the page. */
export async function textOf(page: Page, selector: string, pattern: RegExp): Promise<string> {
  const element = page.locator(selector, { hasText: pattern });
  await element.waitFor();
  return (await element.textContent()) ?? '';
}

/**
 * Until `expression` holds in the page. The store's CSP forbids eval, which page.waitForFunction polls
 * with; page.evaluate goes through the browser's protocol instead.
 */
export async function untilTrue(page: Page, expression: string): Promise<void> {
  while (!(await page.evaluate(expression))) await sleep(100);
}

/** A date as the store writes it: `27 Nov 2026` (en-IN; September is `Sept`). */
export const INDIAN_DATE = /\d{1,2} [A-Z][a-z]{2,3} \d{4}/;

const DATE = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
});

/** `27 Nov 2026`: the day of `iso` in India, as the store shows it. */
export const indianDate = (iso: string | number): string => DATE.format(new Date(iso));

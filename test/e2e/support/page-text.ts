import type { Page } from 'playwright-core';

/** The text of the first `selector` whose text matches `pattern`, once one is on the page. */
export async function textOf(page: Page, selector: string, pattern: RegExp): Promise<string> {
  const element = page.locator(selector, { hasText: pattern });
  await element.waitFor();
  return (await element.textContent()) ?? '';
}

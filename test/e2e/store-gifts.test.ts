import path from 'node:path';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { seriousViolations } from './support/axe';
import { textOf, untilTrue } from './support/page-text';
import { useProduct } from './support/product';
import { signIn } from './support/sign-in';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds.
jest.setTimeout(60_000);

/** A gift bought in the store, in a real browser (docs/codes.md). */
describeNeeding(BROWSER, 'the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);

  it('buys a gift code, lists it with its link, and the link fills the redeem form', async () => {
    const page = await getProduct().newPage({ width: 390, height: 844 });
    const { api } = getProduct();
    await signIn(page, api);
    const premiumBefore = await textOf(page, '#status', /premium/i);

    await page.getByLabel('Buy as a gift code').check();
    await page.getByRole('button', { name: 'Buy for ₹199' }).click();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const verified = await textOf(page, '#buy-message', /Payment verified/);
    const code = /gift code of Monthly is ([0-9A-Z-]{19})\./.exec(verified)?.[1];
    expect(code).toBeDefined();

    await page.reload();
    // The buyer got no premium: the gift waits for whoever redeems it.
    await expect(textOf(page, '#status', /premium/i)).resolves.toBe(premiumBefore);
    await expect(textOf(page, '#gifts li', new RegExp(code!))).resolves.toMatch(
      /Monthly, 30 days.*not redeemed yet/,
    );
    const link = await page.getByLabel(`Link to redeem ${code}`).inputValue();
    expect(link).toBe(`${api}/store/?code=${code}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'store-gifts-390.png'), fullPage: true });

    await page.goto(link);
    const codeField = page.getByRole('textbox', { name: 'Code', exact: true });
    await untilTrue(page, "Boolean(document.querySelector('#redeem input[name=code]')?.value)");
    await expect(codeField.inputValue()).resolves.toBe(code);
    await page.getByRole('button', { name: 'Redeem' }).click();
    await textOf(page, '#redeem-message', /Code redeemed: 30 days of Monthly/);
    await page.reload();
    await expect(textOf(page, '#gifts li', new RegExp(code!))).resolves.toMatch(/redeemed by sandbox_demo/);
  });
});

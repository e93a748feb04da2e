import path from 'node:path';
import type { Page } from 'playwright-core';
import { addPlan, addTier } from '../../src/core/catalog';
import { addOffer } from '../../src/core/offers';
import { grantPremium } from '../../src/core/premium/grant';
import { DEMO_USER } from '../../src/sandbox';
import { grantRequest, seedPlan } from '../support/fixtures';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { seriousViolations } from './support/axe';
import { INDIAN_DATE, textOf } from './support/page-text';
import { useProduct } from './support/product';
import { signIn } from './support/sign-in';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;
const WIDTHS = [390, 1280] as const;

/** The store as a buyer meets it, in a real browser, under its strict CSP. */
describeNeeding(BROWSER, 'the store in a browser', (browserPath) => {
  const getProduct = useProduct(browserPath);
  let blocked: string[] = [];

  /** A page whose every CSP refusal is kept, to be found empty: the store needs nothing its CSP forbids. */
  async function newPage(viewport: { width: number; height: number }): Promise<Page> {
    const page = await getProduct().newPage(viewport);
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    return page;
  }

  afterEach(() => {
    expect(blocked).toEqual([]);
    blocked = [];
  });

  /** A second tier with features, so that the catalog compares two tiers side by side. */
  async function addProTier(): Promise<void> {
    const { sequelize } = getProduct().core;
    await addTier(sequelize, { code: 'pro', name: 'Pro', rank: 2, features: { maxPlaylists: 50, hd: true } });
    await addPlan(sequelize, null, {
      code: 'ProMonth',
      name: 'Pro month',
      tier: 'pro',
      scope: 'USER',
      days: 30,
      price: 299,
    });
  }

  it.each(WIDTHS)(
    'at %i px: the catalog, sign-in, a purchase through the checkout, no serious axe violation',
    async (width) => {
      await addProTier();
      const page = await newPage({ width, height: 844 });
      const { api } = getProduct();
      await page.goto(`${api}/store/`);
      // The catalog before sign-in: the tiers side by side, the plans that sell them with Indian prices.
      await page.getByRole('columnheader', { name: 'Premium' }).waitFor();
      await expect(textOf(page, '#tiers td', /Monthly/)).resolves.toMatch(/Monthly · 30 days · ₹199/);
      await expect(textOf(page, '#tiers td', /Yearly/)).resolves.toMatch(/Yearly · 365 days · ₹1,999/);
      const rowOf = async (name: string) =>
        page
          .getByRole('row', { name: new RegExp(`^${name}`) })
          .locator('th, td')
          .allTextContents();
      await expect(rowOf('Feature')).resolves.toEqual(['Feature', 'Premium', 'Pro']);
      await expect(rowOf('Max playlists')).resolves.toEqual(['Max playlists', '—', '50']);
      await expect(rowOf('Hd')).resolves.toEqual(['Hd', '—', 'Yes']);
      expect(await seriousViolations(page)).toEqual([]);

      await signIn(page, api);
      // Sign-in landed on /store/dashboard?token=…: the token left the address bar at once.
      expect(page.url()).toBe(`${api}/store/dashboard`);

      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('heading', { name: 'Pay ₹199.00' }).waitFor();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      // Said beside Buy, where the buyer acted; the date as India writes it.
      const verified = await textOf(page, '#buy-message', /Payment verified/);
      expect(verified).toMatch(
        new RegExp(
          `^Payment verified: Monthly premium for your account is active until ${INDIAN_DATE.source}\\.$`,
        ),
      );
      await expect(textOf(page, '#status', /^Premium until/)).resolves.toMatch(INDIAN_DATE);
      await expect(textOf(page, '#tier-days li', /days left/)).resolves.toMatch(
        new RegExp(`^Premium · \\d+ days left, until ${INDIAN_DATE.source}$`),
      );
      await expect(textOf(page, '#orders li', /paid/)).resolves.toMatch(
        /Monthly for your account.*₹199 · paid/,
      );
      await page
        .locator('#orders li', { hasText: 'paid' })
        .first()
        .getByRole('button', { name: 'Invoice' })
        .waitFor();

      expect(await seriousViolations(page)).toEqual([]);
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      expect(scrollWidth).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(ARTIFACTS, `store-${width}.png`), fullPage: true });
    },
    TEST_MS,
  );

  it('a shared /store/?offer=CODE link keeps the code through the sign-in and fills the offer field', async () => {
    await addOffer(getProduct().core.sequelize, { code: 'LINKED20', percentOff: 20, actor: 'e2e' });
    const page = await newPage({ width: 390, height: 844 });
    const { api } = getProduct();

    await page.goto(`${api}/store/?offer=linked20`);
    await expect(textOf(page, '#sign-in-message', /offer/)).resolves.toBe(
      'Sign in to buy with the offer linked20: it is kept for you.',
    );
    await page.getByRole('link', { name: 'Sign in with Discord' }).click();
    await page.getByRole('button', { name: 'Authorize' }).click();

    await expect(textOf(page, '#offer-result', /LINKED20/)).resolves.toBe(
      'LINKED20: ₹199 − ₹39.80 = ₹159.20',
    );
    await expect(page.getByLabel('Offer code').inputValue()).resolves.toBe('linked20');
    // Once: a reload of the dashboard starts with an empty field.
    await page.reload();
    await textOf(page, '#status', /premium/i);
    await expect(page.getByLabel('Offer code').inputValue()).resolves.toBe('');
  });

  it(
    'verify-payment failing after the checkout paid: the page says what to do, and the webhook applies the payment',
    async () => {
      const page = await newPage({ width: 1280, height: 844 });
      const { api } = getProduct();
      await signIn(page, api);
      // The network drops the page's verify-payment: Razorpay's webhook still tells the service.
      await page.route('**/api/payment/verify-payment', (route) => route.abort('connectionreset'));

      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Managed Server' });
      await page.getByRole('button', { name: 'Buy for ₹199' }).click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();

      await expect(textOf(page, '#buy-message', /went through/)).resolves.toBe(
        'Your payment went through, but this page could not confirm it (The store did not answer: check your ' +
          'connection. (UNREACHABLE)). Nothing is lost: Razorpay tells the store of every payment, and your ' +
          'premium is applied within a few minutes. Do not pay again: see the order under Your orders, where ' +
          '"Check again" asks Razorpay now.',
      );
      // The webhook applied it: the server's premium shows, and the order is paid.
      await expect(textOf(page, '#guilds li', /Demo Managed Server.*Premium until/)).resolves.toMatch(
        INDIAN_DATE,
      );
      await textOf(page, '#orders li', /Demo Managed Server.*paid/);
      const [orders] = await getProduct().core.sequelize.query(
        "SELECT status FROM orders WHERE guild_id = '613425648685547542'",
      );
      expect(orders).toEqual([{ status: 'paid' }]);
    },
    TEST_MS,
  );

  it('keeps the buyer signed in when the tab is closed, and greys Subscribe out for a plan bought once', async () => {
    const page = await newPage({ width: 1280, height: 844 });
    const { api } = getProduct();
    await signIn(page, api);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    // What a closed tab loses is its session storage; a new tab opens the store afresh.
    await page.evaluate('sessionStorage.clear()');
    await page.goto(`${api}/store/`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.locator('#plans input[value="Custom"]').check();
    await expect(textOf(page, '#subscribe-reason', /bought once/)).resolves.toBe(
      'Custom is bought once, with Buy: Subscribe is for plans marked “renews”.',
    );
    await expect(page.getByRole('button', { name: 'Subscribe' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel('Offer code').getAttribute('placeholder')).resolves.toBe('Offer code');
  });

  it('signs out for good: the token the page held is refused by the API afterwards', async () => {
    const page = await newPage({ width: 390, height: 844 });
    const { api } = getProduct();
    await signIn(page, api);
    const token = (await page.evaluate('localStorage.getItem("premium.sessionToken")')) as string;
    const orders = () =>
      fetch(`${api}/api/payment/orders`, { headers: { authorization: `Bearer ${token}` } });
    expect((await orders()).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with Discord' }).waitFor();

    const after = await orders();
    expect([after.status, ((await after.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'SESSION_ENDED',
    ]);
  });

  it('says what to do when its own settings do not arrive', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.route('**/store/config.json', (route) => route.abort('connectionreset'));
    await page.goto(`${getProduct().api}/store/`);
    await expect(textOf(page, '#catalog-message', /did not load/)).resolves.toBe(
      'The store did not load (no answer): check your connection, then reload the page.',
    );
  });

  it(
    "binds a bundle's free slot to a server and unbinds one, saying so in the bundle's row",
    async () => {
      const { api, core } = getProduct();
      await addPlan(core.sequelize, null, {
        code: 'Trio',
        tier: 'premium',
        scope: 'SERVER',
        days: 30,
        price: 499,
        slots: 3,
      });
      const page = await newPage({ width: 1280, height: 844 });
      await signIn(page, api);
      // For sits above the plans; while it is Myself, the bundle is greyed out and says why.
      const trio = page.getByRole('radio', { name: /^Trio, 30 days/ });
      await expect(trio.isDisabled()).resolves.toBe(true);
      await expect(page.locator('label', { has: trio }).textContent()).resolves.toMatch(
        /for a server: choose one under For$/,
      );
      const [forBox, plansBox] = await Promise.all(
        [page.getByLabel('For', { exact: true }), page.locator('#plans')].map((node) => node.boundingBox()),
      );
      expect(forBox!.y).toBeLessThan(plansBox!.y);
      await page.getByLabel('For', { exact: true }).selectOption({ label: 'Server: Demo Owned Server' });
      await page.getByLabel('Trio, 30 days').check();
      await page.getByRole('button', { name: 'Buy for ₹499' }).click();
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await textOf(page, '#buy-message', /Payment verified/);

      const bundle = page.locator('#bundle-list > li', { hasText: 'Trio' });
      await expect(textOf(page, '#bundle-list > li', /Trio · 1 of 3 servers/)).resolves.toMatch(
        new RegExp(`until ${INDIAN_DATE.source}`),
      );
      await bundle
        .getByLabel('Server for a free slot of Trio')
        .selectOption({ label: 'Demo Managed Server' });
      await bundle.getByRole('button', { name: 'Bind', exact: true }).click();
      await expect(textOf(page, '#bundle-list .message', /Demo Managed Server/)).resolves.toMatch(
        new RegExp(`^Demo Managed Server is premium until ${INDIAN_DATE.source}\\.$`),
      );
      await textOf(page, '#bundle-list > li', /Trio · 2 of 3 servers/);

      await bundle.getByRole('button', { name: 'Unbind Demo Owned Server' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Unbind' }).click();
      await expect(textOf(page, '#bundle-list .message', /no longer/)).resolves.toBe(
        'Demo Owned Server is no longer in this bundle: its slot is free.',
      );
      expect(await seriousViolations(page)).toEqual([]);
      const [bindings] = await core.sequelize.query(
        'SELECT guild_id, unbound_at IS NOT NULL AS unbound FROM bundle_bindings ORDER BY id',
      );
      expect(bindings).toEqual([
        { guild_id: '613425648685547541', unbound: true },
        { guild_id: '613425648685547542', unbound: false },
      ]);
    },
    TEST_MS,
  );

  it("says what runs now and what waits, and keeps a server's days apart from the buyer's own", async () => {
    await addProTier();
    const page = await newPage({ width: 390, height: 844 });
    const { api, core } = getProduct();
    await signIn(page, api);
    // 30 days of Premium, then 30 of Pro (which runs first), and a year bought for a server.
    await grantPremium(core.sequelize, grantRequest(DEMO_USER.id));
    await grantPremium(core.sequelize, grantRequest(DEMO_USER.id, { tier: 'pro' }));
    await grantPremium(
      core.sequelize,
      grantRequest(DEMO_USER.id, {
        category: 'SERVER',
        guildId: DEMO_USER.guilds[0]!.id,
        plan: seedPlan('Yearly'),
      }),
    );
    await page.reload();
    const lines = page.locator('#tier-days li');
    await lines.nth(2).waitFor();
    const date = INDIAN_DATE.source;
    const expected = [
      `^Pro · 30 days left, until ${date}$`,
      `^then Premium · 30 days, until ${date}$`,
      `^then as the buyer of a server's premium, until ${date}$`,
    ];
    const texts = await lines.allTextContents();
    expect(texts).toHaveLength(3);
    texts.forEach((text, index) => expect(text).toMatch(new RegExp(expected[index]!)));
    await page.screenshot({ path: path.join(ARTIFACTS, 'store-tier-days.png'), fullPage: true });
  });
});

import { Redis } from 'ioredis';
import { createCore } from '../../src/core';
import { addPlan, addTier, archivePlan } from '../../src/core/catalog';
import { buildApp } from '../../src/server/app';
import { storeConfig } from '../../src/server/store/plugin';
import { useTestApp } from '../support/app';
import { testConfig } from '../support/context';

describe('the demo page outside production', () => {
  const getApp = useTestApp({ RAZORPAY_API_URL: 'http://127.0.0.1:4010/razorpay' });

  it.each([
    ['/', 'text/html'],
    ['/login', 'text/html'],
    ['/dashboard', 'text/html'],
    ['/demo/store.js', 'text/javascript'],
    ['/demo/store.css', 'text/css'],
    ['/demo/self-service.js', 'text/javascript'],
  ])('serves %s as %s', async (url, type) => {
    const reply = await getApp().app.inject({ url });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe(`${type}; charset=utf-8`);
    expect(reply.body.length).toBeGreaterThan(0);
  });

  it.each(['/demo/nope.js', '/demo/..%2Fplugin.ts', '/demo/index.html'])(
    'serves no other file: %s is 404',
    async (url) => {
      const reply = await getApp().app.inject({ url });
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    },
  );

  it("tells the page where the sandbox's checkout and bot are, and Custom's rule; no prices", async () => {
    const reply = await getApp().app.inject({ url: '/demo/config.json' });
    expect(reply.json()).toEqual({
      checkoutUrl: 'http://127.0.0.1:4010/razorpay/checkout',
      botEventsUrl: 'http://127.0.0.1:4010/bot/events',
      customMonths: { min: 1, max: 36 },
      customMonthPlan: 'Monthly',
      gstStates: expect.arrayContaining([
        { code: '29', name: 'Karnataka' },
        { code: '38', name: 'Ladakh' },
      ]),
    });
    // The billing select offers every state and union territory GST knows, and nothing else.
    expect(reply.json().gstStates).toHaveLength(37);
  });

  it("prices its plans from the catalog: a plan added is on the page's list, an archived one is not", async () => {
    const { sequelize } = getApp().core;
    await addTier(sequelize, { code: 'pro', name: 'Pro', rank: 2 });
    await addPlan(sequelize, null, { code: 'ProWeek', tier: 'pro', scope: 'USER', days: 7, price: '49.50' });
    await archivePlan(sequelize, 'Yearly');
    const [page, script, plans] = await Promise.all([
      getApp().app.inject({ url: '/' }),
      getApp().app.inject({ url: '/demo/store.js' }),
      getApp().app.inject({ url: '/api/plans' }),
    ]);

    // The page has no plan of its own: store.js lists GET /api/plans, and buys with its code and price.
    expect(page.body).toContain('<fieldset id="plans">');
    expect(page.body).not.toMatch(/value="(Monthly|Yearly)"/);
    expect(script.body).toContain("api('/api/plans')");
    expect(script.body).toContain('plan: code');
    expect(script.body).not.toContain('settings.prices');
    expect(plans.json().plans).toEqual([
      expect.objectContaining({ code: 'Monthly', price: 199, renews: true }),
      expect.objectContaining({ code: 'ProWeek', price: 49.5, tier: 'pro', scope: 'USER', renews: false }),
    ]);
  });

  it('has an offer code field that is priced by the quote and sent to create-order', async () => {
    const [page, script] = await Promise.all([
      getApp().app.inject({ url: '/' }),
      getApp().app.inject({ url: '/demo/store.js' }),
    ]);

    // The code sits in the buy form, its answer (the new price, or the refusal) right beside it.
    const form = /<form id="buy">[\s\S]*<\/form>/.exec(page.body)![0];
    expect(form).toMatch(/<input\s+name="offerCode"[^>]*aria-label="Offer code"/);
    expect(form).toContain('<button id="apply-offer" type="button">Apply</button>');
    expect(form).toMatch(/id="offer-result"[^>]*role="status"/);
    expect(form.indexOf('name="offerCode"')).toBeLessThan(form.indexOf('id="offer-result"'));
    expect(form.indexOf('id="offer-result"')).toBeLessThan(form.indexOf('id="pay"'));
    // store.js asks the quote, and buys with the code and the quoted amount.
    expect(script.body).toContain("api('/api/payment/quote'");
    expect(script.body).toContain('amount: quote ? quote.amount : planPrice(code, months)');
    expect(script.body).toMatch(/create-order'[\s\S]*offerCode,/);
  });

  it('offers no checkout when Razorpay is not the sandbox', () => {
    expect(storeConfig(testConfig({ RAZORPAY_API_URL: 'https://api.razorpay.com' }))).toMatchObject({
      checkoutUrl: null,
      botEventsUrl: null,
    });
  });
});

describe('in production', () => {
  it('serves no demo page', async () => {
    const config = testConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-production-secret-of-32-characters',
      DISCORD_CLIENT_ID: 'client',
      DISCORD_CLIENT_SECRET: 'client-secret',
      RAZORPAY_KEY_ID: 'rzp_live_key',
      RAZORPAY_KEY_SECRET: 'key-secret',
      RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
      PLAN_PRICES: 'Monthly=199,Yearly=1999',
    });
    const core = createCore(config);
    const redis = new Redis(config.redisUrl, { lazyConnect: true });
    const app = await buildApp({ core, redis });
    try {
      for (const url of ['/', '/login', '/dashboard', '/demo/store.js', '/demo/config.json']) {
        expect({ url, status: (await app.inject({ url })).statusCode }).toEqual({ url, status: 404 });
      }
    } finally {
      await app.close();
      redis.disconnect();
      await core.close();
    }
  });
});

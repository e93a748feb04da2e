import { loadConfig } from '../../src/core/config';
import { addPlan, addTier, archivePlan } from '../../src/core/catalog';
import { useTestApp } from '../support/app';
import { problemsOf } from '../support/config-problems';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(32),
  DISCORD_CLIENT_ID: 'client',
  DISCORD_CLIENT_SECRET: 'client-secret',
  RAZORPAY_KEY_ID: 'rzp_live_key',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  PLAN_PRICES: 'Monthly=199,Yearly=1999',
  HOST: '127.0.0.1',
};

/** A CSP header as its directives: `{ 'script-src': ["'self'"], … }`. */
function directivesOf(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    (header as string).split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('the store outside production (the sandbox pays)', () => {
  const getApp = useTestApp({ RAZORPAY_API_URL: 'http://127.0.0.1:4010/razorpay' });
  const get = (url: string) => getApp().app.inject({ url });

  it.each([
    ['/store/', 'text/html'],
    ['/store/login', 'text/html'],
    ['/store/dashboard', 'text/html'],
    ['/store/store.js', 'text/javascript'],
    ['/store/store.css', 'text/css'],
    ['/store/self-service.js', 'text/javascript'],
    ['/store/bundles.js', 'text/javascript'],
    ['/store/upgrades.js', 'text/javascript'],
    ['/store/catalog.js', 'text/javascript'],
    ['/store/checkout.js', 'text/javascript'],
    ['/store/dashboard.js', 'text/javascript'],
    ['/store/offers.js', 'text/javascript'],
    ['/store/plans.js', 'text/javascript'],
    ['/store/plan-targets.js', 'text/javascript'],
    ['/store/confirm.js', 'text/javascript'],
    ['/store/session.js', 'text/javascript'],
  ])('serves %s as %s', async (url, type) => {
    const reply = await get(url);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe(`${type}; charset=utf-8`);
    expect(reply.body.length).toBeGreaterThan(0);
  });

  it.each(['/store/nope.js', '/store/..%2Fplugin.ts', '/store/index.html'])(
    'serves no other file: %s is 404',
    async (url) => {
      const reply = await get(url);
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    },
  );

  it.each([
    ['/', '/store/'],
    ['/login?error=access_denied', '/store/login?error=access_denied'],
    ['/dashboard?token=a.b.c&providerId=1', '/store/dashboard?token=a.b.c&providerId=1'],
    ['/store', '/store/'],
  ])("keeps the demo page's old address working: %s redirects to %s", async (url, location) => {
    const reply = await get(url);
    expect({ status: reply.statusCode, location: reply.headers.location }).toEqual({ status: 302, location });
  });

  it('sends the page a strict CSP: its own scripts and styles only, nothing inline, no frame', async () => {
    for (const url of ['/store/', '/store/dashboard']) {
      const csp = directivesOf((await get(url)).headers['content-security-policy']);
      expect(csp).toEqual({
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'https://cdn.discordapp.com'],
        // The sandbox's bot stand-in, which the page lists the events of.
        'connect-src': ["'self'", 'http://127.0.0.1:4010'],
        'frame-src': ["'none'"],
        'form-action': ["'self'"],
        'base-uri': ["'none'"],
        'object-src': ["'none'"],
        'frame-ancestors': ["'none'"],
      });
    }
    // The page keeps to it: no inline script, no style attribute, no inline handler.
    const page = (await get('/store/')).body;
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\sstyle=|\son[a-z]+=/);
  });

  it("tells the page to pay with the sandbox's checkout, where its bot is, Custom's rule; no prices", async () => {
    const reply = await get('/store/config.json');
    expect(reply.json()).toEqual({
      name: 'Premium',
      supportUrl: null,
      checkout: { kind: 'sandbox', url: 'http://127.0.0.1:4010/razorpay/checkout' },
      botEventsUrl: 'http://127.0.0.1:4010/bot/events',
      customMonths: { min: 1, max: 36 },
      customMonthPlan: 'Monthly',
      gstStates: expect.arrayContaining([
        { code: '29', name: 'Karnataka' },
        { code: '38', name: 'Ladakh' },
      ]),
      taxInvoices: false,
      timeZone: 'Asia/Kolkata',
    });
    // The billing select offers every state and union territory GST knows, in code order (01 Jammu and
    // Kashmir first, not below 97), and nothing else.
    const codes = reply.json().gstStates.map((state: { code: string }) => state.code);
    expect(codes).toHaveLength(37);
    expect(codes.slice(0, 3)).toEqual(['01', '02', '03']);
    expect(codes.at(-1)).toBe('97');
    expect(codes).toEqual([...codes].sort());
  });

  it("prices its plans from the catalog: a plan added is on the page's list, an archived one is not", async () => {
    const { sequelize } = getApp().core;
    await addTier(sequelize, { code: 'pro', name: 'Pro', rank: 2 });
    await addPlan(sequelize, null, { code: 'ProWeek', tier: 'pro', scope: 'USER', days: 7, price: '49.50' });
    await archivePlan(sequelize, 'Yearly');
    const [page, script, plans] = await Promise.all([
      get('/store/'),
      get('/store/store.js'),
      get('/api/plans'),
    ]);

    // The page has no plan of its own: store.js lists GET /api/plans, and buys with its code and price.
    expect(page.body).toContain('<fieldset id="plans">');
    expect(page.body).not.toMatch(/value="(Monthly|Yearly)"/);
    expect(script.body).toContain("api('/api/plans')");
    expect(script.body).toContain('plan: code');
    expect(plans.json().plans).toEqual([
      expect.objectContaining({ code: 'Monthly', price: 199, renews: true }),
      expect.objectContaining({ code: 'ProWeek', price: 49.5, tier: 'pro', scope: 'USER', renews: false }),
    ]);
  });

  it("signs out through POST /api/auth/logout, so that the token stops working, not only the page's copy", async () => {
    const script = (await get('/store/store.js')).body;

    expect(script).toContain("byId('sign-out').addEventListener('click', endSession)");
    expect(script).toMatch(
      /async function endSession\(\) \{[^}]*fetch\('\/api\/auth\/logout', \{ method: 'POST'/,
    );
  });

  it("shows an order in the state the API names as the console does, not in the order's status", async () => {
    const script = (await get('/store/self-service.js')).body;

    const shown = /function orderState\(order\) \{[^}]*\}/.exec(script)![0];
    expect(shown).toContain("return order.state === 'created' ? 'unpaid' : order.state;");
    expect(shown).not.toContain('order.status');
  });

  it('puts For above the plans, and says beside a plan greyed out for that target why', async () => {
    const [page, store, targets] = await Promise.all([
      get('/store/'),
      get('/store/store.js'),
      get('/store/plan-targets.js'),
    ]);
    const form = /<form id="buy">[\s\S]*<\/form>/.exec(page.body)![0];

    expect(form.indexOf('name="target"')).toBeGreaterThan(-1);
    expect(form.indexOf('name="target"')).toBeLessThan(form.indexOf('id="plans"'));
    expect(page.body.indexOf('/store/plan-targets.js')).toBeLessThan(page.body.indexOf('/store/store.js'));
    expect(store.body).toContain(
      'StorePlanTargets.greyOut(input, allowedFor(input.value, guildId), form.target)',
    );
    expect(targets.body).toContain("'for a server: choose one under For'");
    expect(targets.body).toContain("'for yourself: choose Myself under For'");
  });

  it("asks Move, Unbind and Cancel with one in-page confirmation, never the browser's confirm()", async () => {
    const names = ['store', 'confirm', 'self-service', 'bundles', 'subscriptions'];
    const [page, ...scripts] = await Promise.all([
      get('/store/'),
      ...names.map((name) => get(`/store/${name}.js`)),
    ]);
    const script = Object.fromEntries(names.map((name, at) => [name, scripts[at]!.body]));

    expect(page.body).toMatch(/<dialog id="confirm" aria-labelledby="confirm-question">/);
    expect(page.body.indexOf('/store/confirm.js')).toBeLessThan(page.body.indexOf('/store/store.js'));
    expect(script.store).toContain('confirm: StoreConfirm.ask,');
    expect(script.confirm).toContain('dialog.showModal()');
    expect(script['self-service']).toContain("await PremiumStore.confirm(question, 'Move')");
    expect(script.bundles).toContain("await PremiumStore.confirm(question, 'Unbind')");
    expect(script.subscriptions).toContain("await store().confirm(question, 'Cancel subscription')");
    for (const body of Object.values(script)) expect(body).not.toMatch(/(^|[^.\w])confirm\(/m);
  });

  it('keeps the session across a closed tab until it expires, and Sign out forgets it', async () => {
    const names = ['session', 'store', 'self-service', 'subscriptions'];
    const [page, ...scripts] = await Promise.all([
      get('/store/'),
      ...names.map((name) => get(`/store/${name}.js`)),
    ]);
    const [session, store] = scripts.map((script) => script!.body);

    expect(page.body).toMatch(/<head>[\s\S]*?<script src="\/store\/session.js" defer><\/script>\s*<script/);
    expect(session).toContain('localStorage.getItem(SESSION_KEY)');
    expect(session).toContain('expiryOf(token) > Date.now()');
    expect(store).toMatch(/function signOut\(reason\) \{\s*StoreSession.forget\(\);/);
    for (const script of scripts) expect(script!.body).not.toContain('sessionStorage');
  });

  it('shows signed-out plans with their trial and slots, a neutral offer placeholder, Subscribe for renewing plans only', async () => {
    const [page, catalog, subscriptions] = await Promise.all([
      get('/store/'),
      get('/store/catalog.js'),
      get('/store/subscriptions.js'),
    ]);

    expect(catalog.body).toContain('` · ${plan.trialDays} days free`');
    expect(catalog.body).toContain('` · ${plan.slots} servers`');
    expect(page.body).toMatch(/<input\s+name="offerCode"[^>]*placeholder="Offer code"/);
    expect(subscriptions.body).toContain('button.disabled = subscribing || plan === null || oneOff;');
    expect(subscriptions.body).toContain('is bought once, with Buy: Subscribe is for plans marked “renews”.');
  });

  it('has an offer code field that is priced by the quote and sent to create-order', async () => {
    const [page, script, offers] = await Promise.all([
      get('/store/'),
      get('/store/store.js'),
      get('/store/offers.js'),
    ]);

    // The code sits in the buy form, its answer (the new price, or the refusal) right beside it.
    const form = /<form id="buy">[\s\S]*<\/form>/.exec(page.body)![0];
    expect(form).toMatch(/<input\s+name="offerCode"[^>]*aria-label="Offer code"/);
    expect(form).toContain('<button id="apply-offer" type="button">Apply</button>');
    expect(form).toMatch(/id="offer-result"[^>]*role="status"/);
    expect(form.indexOf('name="offerCode"')).toBeLessThan(form.indexOf('id="offer-result"'));
    expect(form.indexOf('id="offer-result"')).toBeLessThan(form.indexOf('id="pay"'));
    // Buy's own message line is in the form, after the button: no banner at the top of the page.
    expect(form.indexOf('id="pay"')).toBeLessThan(form.indexOf('id="buy-message"'));
    expect(page.body).not.toMatch(/id="(notice|error)"/);
    // offers.js asks the quote; store.js buys with the code and the quoted amount.
    expect(offers.body).toContain("api('/api/payment/quote'");
    expect(script.body).toContain('amount: quote ? quote.amount : planPrice(code, months)');
    expect(script.body).toMatch(/create-order'[\s\S]*offerCode,/);
  });

  it('says beside Subscribe that an applied offer is for one-time purchases, and sends Subscribe no code', async () => {
    const [page, store, subscriptions, offers] = await Promise.all([
      get('/store/'),
      get('/store/store.js'),
      get('/store/subscriptions.js'),
      get('/store/offers.js'),
    ]);
    const form = /<form id="buy">[\s\S]*<\/form>/.exec(page.body)![0];
    // Subscribe is placed right after Buy (subscriptions.js); the note follows them, in the form.
    expect(form).toMatch(/<span id="subscribe-note" class="reason" role="status" hidden><\/span>/);
    expect(form.indexOf('id="pay"')).toBeLessThan(form.indexOf('id="subscribe-note"'));
    expect(subscriptions.body).toContain("document.getElementById('pay').after(' ', button, reason)");
    // The note is shown exactly when the chosen plan renews and a quote with the code is current.
    expect(offers.body).toContain('const shown = renews && currentQuote() !== null;');
    expect(offers.body).toContain('Offers apply to one-time purchases: Subscribe charges');
    expect(store.body).toMatch(/function updatePrice\(\) \{[\s\S]*showSubscribeNote\(code, months\);\n\}/);
    // Subscribe asks create-subscription for the plan's own price, with no code.
    const body = /'\/api\/payment\/create-subscription', \{[\s\S]*?\}\);/.exec(subscriptions.body)![0];
    expect(body).toContain('amount: plan.price');
    expect(body).not.toContain('offerCode');
  });
});

describe("the store's files under a per-IP limit", () => {
  const getApp = useTestApp({ RATE_LIMIT_PER_MINUTE: '2' });

  it('counts page loads, not files: every file of the page loads twice within a limit of 2 a minute', async () => {
    const page = (await getApp().app.inject({ url: '/store/' })).body;
    const files = [...page.matchAll(/(?:src|href)="(\/store\/[a-z0-9-]+\.(?:js|css))"/g)].map(
      (match) => match[1]!,
    );
    expect(files.length).toBeGreaterThan(2);
    for (const round of [1, 2]) {
      for (const url of files) {
        const reply = await getApp().app.inject({ url });
        expect({ round, url, status: reply.statusCode }).toEqual({ round, url, status: 200 });
      }
    }
  });
});

describe('the store under production with STORE_PUBLIC=true (Razorpay Checkout pays)', () => {
  const getApp = useTestApp({
    ...PRODUCTION,
    STORE_PUBLIC: 'true',
    STORE_NAME: 'Melody Bot Premium',
    STORE_SUPPORT_URL: 'https://discord.gg/melody',
  });
  const get = (url: string) => getApp().app.inject({ url });

  it('is served, branded, and pays with checkout.js and the key id: the server says so, not the page', async () => {
    expect((await get('/store/dashboard')).statusCode).toBe(200);
    expect((await get('/store/config.json')).json()).toMatchObject({
      name: 'Melody Bot Premium',
      supportUrl: 'https://discord.gg/melody',
      checkout: {
        kind: 'razorpay',
        scriptUrl: 'https://checkout.razorpay.com/v1/checkout.js',
        keyId: 'rzp_live_key',
      },
      botEventsUrl: null,
    });
  });

  it("allows Razorpay Checkout's script and frame in the CSP, and nothing inline", async () => {
    const csp = directivesOf((await get('/store/')).headers['content-security-policy']);
    expect(csp).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'", 'https://checkout.razorpay.com'],
      'style-src': ["'self'"],
      'frame-src': ['https://checkout.razorpay.com', 'https://api.razorpay.com'],
      'connect-src': ["'self'", 'https://checkout.razorpay.com', 'https://api.razorpay.com'],
      'frame-ancestors': ["'none'"],
    });
    expect(JSON.stringify(csp)).not.toContain('unsafe');
  });
});

describe('the store under production without STORE_PUBLIC', () => {
  const getApp = useTestApp(PRODUCTION);

  it('serves no store: every path of it is 404', async () => {
    for (const url of [
      '/',
      '/login',
      '/dashboard',
      '/store/',
      '/store/dashboard',
      '/store/store.js',
      '/store/config.json',
    ]) {
      expect({ url, status: (await getApp().app.inject({ url })).statusCode }).toEqual({ url, status: 404 });
    }
  });
});

describe("the store's settings", () => {
  it('name every wrong one', () => {
    expect(
      problemsOf({
        NODE_ENV: 'test',
        STORE_PUBLIC: 'yes',
        STORE_NAME: 'x'.repeat(61),
        STORE_SUPPORT_URL: 'javascript:alert(1)',
      }),
    ).toEqual([
      'STORE_PUBLIC: must be true or false',
      'STORE_NAME: must be at most 60 characters',
      'STORE_SUPPORT_URL: must be an https:, http: or mailto: address',
    ]);
  });

  it('default to a store named Premium with no help link, and a frontend at /store', () => {
    expect(loadConfig({ NODE_ENV: 'test', PORT: '3000' })).toMatchObject({
      store: { public: false, name: 'Premium', supportUrl: null },
      frontendUrl: 'http://localhost:3000/store',
    });
  });
});

import { QueryTypes } from 'sequelize';
import { useTestApp } from '../../support/app';
import { answer, consoleRequests } from '../../support/console-requests';
import { createOrderRow, createUser, snowflake } from '../../support/fixtures';

const OPERATOR = snowflake();
const app = useTestApp({ OPERATOR_PROVIDER_IDS: OPERATOR });

const { cookie, request } = consoleRequests(app, OPERATOR);

/** The catalog's rows as they are, to show that a refused change wrote nothing. */
function catalogRows(): Promise<unknown[]> {
  return app().core.sequelize.query(
    `SELECT to_jsonb(t) AS row FROM tiers t
     UNION ALL SELECT to_jsonb(p) - 'updated_at' FROM plans p ORDER BY 1`,
    { type: QueryTypes.SELECT },
  );
}

describe('the console catalog routes', () => {
  it('refuse without an operator session, and a change without X-Console-Request, writing nothing', async () => {
    const before = await catalogRows();
    const operator = await cookie();
    const changes = [
      { url: '/api/console/catalog/tiers', payload: { code: 'pro', name: 'Pro', rank: 2 } },
      { url: '/api/console/catalog/tiers/premium/features', payload: { set: ['music=true'] } },
      {
        url: '/api/console/catalog/plans',
        payload: { code: 'Week', scope: 'USER', days: 7, price: 49 },
      },
      { url: '/api/console/catalog/plans/Monthly/price', payload: { price: 249 } },
      { url: '/api/console/catalog/plans/Yearly/archive', payload: {} },
    ];

    const signedOut = await Promise.all([
      app().app.inject({ method: 'GET', url: '/api/console/catalog' }),
      ...changes.map((change) =>
        app().app.inject({ method: 'POST', ...change, headers: { 'x-console-request': '1' } }),
      ),
    ]);
    const noHeader = await Promise.all(
      changes.map((change) => app().app.inject({ method: 'POST', ...change, headers: { cookie: operator } })),
    );

    expect(signedOut.map(answer)).toEqual(Array(6).fill([401, 'CONSOLE_SIGN_IN_REQUIRED']));
    expect(noHeader.map(answer)).toEqual(Array(5).fill([403, 'CSRF_HEADER_REQUIRED']));
    expect(await catalogRows()).toEqual(before);
  });

  it('are not in the public OpenAPI document', async () => {
    const openapi = (await app().app.inject({ url: '/docs/json' })).json<{ paths: object }>();
    expect(Object.keys(openapi.paths).filter((path) => path.includes('catalog'))).toEqual([]);
  });

  it('list the tiers and every plan, archived ones too, with prices in INR', async () => {
    await request('POST', '/api/console/catalog/plans/Yearly/archive', {});

    const reply = await request('GET', '/api/console/catalog');

    expect(reply.statusCode).toBe(200);
    const catalog = reply.json();
    expect(catalog.defaultTier).toBe('premium');
    expect(catalog.tiers).toEqual([{ code: 'premium', name: 'Premium', rank: 1, features: {} }]);
    expect(
      catalog.plans.map((plan: Record<string, unknown>) => [plan.code, plan.price, plan.status]),
    ).toEqual([
      ['Monthly', 199, 'active'],
      ['Yearly', 1999, 'archived'],
    ]);
  });

  it('add a tier, set its features, add a plan of it, price and archive it, as the CLI does', async () => {
    const tier = await request('POST', '/api/console/catalog/tiers', {
      code: 'pro',
      name: 'Pro',
      rank: 2,
      features: ['music=true', 'queue=500', 'quality=high'],
    });
    expect(tier.statusCode).toBe(200);
    expect(tier.json()).toEqual({
      code: 'pro',
      name: 'Pro',
      rank: 2,
      features: { music: true, queue: 500, quality: 'high' },
    });

    const features = await request('POST', '/api/console/catalog/tiers/pro/features', {
      set: ['queue=1000'],
      remove: ['quality'],
    });
    expect(features.json()).toMatchObject({ code: 'pro', features: { music: true, queue: 1000 } });
    expect(Object.keys(features.json().features)).toEqual(['music', 'queue']);

    const plan = await request('POST', '/api/console/catalog/plans', {
      code: 'ProWeek',
      name: 'Pro, a week',
      tier: 'pro',
      scope: 'SERVER',
      days: 7,
      price: '99.50',
      slots: 2,
      renews: false,
    });
    expect(plan.statusCode).toBe(200);
    expect(plan.json()).toMatchObject({
      code: 'ProWeek',
      tier: 'pro',
      scope: 'SERVER',
      days: 7,
      price: 99.5,
      pricePaise: 9_950,
      slots: 2,
      renews: false,
      status: 'active',
    });

    // An order made at the old price keeps it.
    const buyer = await createUser();
    const order = await createOrderRow(buyer.id, { planType: 'ProWeek', tier: 'pro', amountPaise: 9_950 });
    const priced = await request('POST', '/api/console/catalog/plans/ProWeek/price', { price: 120 });
    expect(priced.json()).toMatchObject({
      before: { code: 'ProWeek', price: 99.5 },
      after: { code: 'ProWeek', price: 120, pricePaise: 12_000 },
    });
    await order.reload();
    expect(order.amountPaise).toBe(9_950);

    const archived = await request('POST', '/api/console/catalog/plans/ProWeek/archive', {});
    expect(archived.json()).toMatchObject({ code: 'ProWeek', status: 'archived' });
    const onSale = (await app().app.inject({ url: '/api/plans' })).json();
    expect(onSale.plans.map((each: { code: string }) => each.code)).toEqual(['Monthly', 'Yearly']);
    expect(onSale.tiers[0]).toEqual({
      code: 'pro',
      name: 'Pro',
      rank: 2,
      features: { music: true, queue: 1000 },
    });
  });

  it('refuse what the catalog refuses, with its codes, writing nothing', async () => {
    await request('POST', '/api/console/catalog/tiers', { code: 'pro', name: 'Pro', rank: 2 });
    await request('POST', '/api/console/catalog/plans/Yearly/archive', {});
    const before = await catalogRows();

    const refused = [
      await request('POST', '/api/console/catalog/tiers', { code: 'pro', name: 'Again', rank: 3 }),
      await request('POST', '/api/console/catalog/tiers', { code: 'gold', name: 'Gold', rank: 2 }),
      await request('POST', '/api/console/catalog/tiers', {
        code: 'gold',
        name: 'Gold',
        rank: 3,
        features: ['music'],
      }),
      await request('POST', '/api/console/catalog/tiers/gold/features', { set: ['music=true'] }),
      await request('POST', '/api/console/catalog/tiers/pro/features', { set: ['a=1'], remove: ['a'] }),
      await request('POST', '/api/console/catalog/tiers/pro/features', {}),
      await request('POST', '/api/console/catalog/plans', {
        code: 'Monthly',
        scope: 'ANY',
        days: 30,
        price: 99,
      }),
      await request('POST', '/api/console/catalog/plans', {
        code: 'Gold',
        tier: 'gold',
        scope: 'ANY',
        days: 30,
        price: 99,
      }),
      await request('POST', '/api/console/catalog/plans', {
        code: 'Cheap',
        scope: 'ANY',
        days: 30,
        price: 0.5,
      }),
      await request('POST', '/api/console/catalog/plans/Monthly/price', { price: 9.999 }),
      await request('POST', '/api/console/catalog/plans/Monthly/price', { price: 99999999 }),
      await request('POST', '/api/console/catalog/plans/Monthly/price', { price: '1e12' }),
      await request('POST', '/api/console/catalog/plans', {
        code: 'Dear',
        scope: 'ANY',
        days: 30,
        price: 1e9,
      }),
      await request('POST', '/api/console/catalog/plans/Nope/price', { price: 99 }),
      await request('POST', '/api/console/catalog/plans/Yearly/archive', {}),
    ];

    expect(refused.map(answer)).toEqual([
      [409, 'TIER_EXISTS'],
      [409, 'RANK_TAKEN'],
      [400, 'INVALID_FEATURE'],
      [400, 'UNKNOWN_TIER'],
      [400, 'FEATURE_SET_AND_REMOVED'],
      [400, 'NO_FEATURE_CHANGE'],
      [409, 'PLAN_EXISTS'],
      [400, 'UNKNOWN_TIER'],
      [400, 'INVALID_PRICE'],
      [400, 'INVALID_PRICE'],
      [400, 'INVALID_PRICE'],
      [400, 'INVALID_PRICE'],
      [400, 'INVALID_PRICE'],
      [400, 'UNKNOWN_PLAN'],
      [409, 'PLAN_ARCHIVED'],
    ]);
    expect(await catalogRows()).toEqual(before);
  });

  it("serve the catalog's script to the page, which links #/catalog", async () => {
    const [page, script] = await Promise.all([
      app().app.inject({ url: '/console' }),
      app().app.inject({ url: '/console/assets/console-catalog.js' }),
    ]);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(page.body).toContain('<script src="/console/assets/console-catalog.js" defer></script>');
    expect(page.body).toContain('href="#/catalog"');
  });
});

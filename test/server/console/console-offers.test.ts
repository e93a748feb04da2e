import { QueryTypes } from 'sequelize';
import { showOffer } from '../../../src/core/offers';
import { answer, consoleRequests } from '../../support/console-requests';
import { createUser, snowflake } from '../../support/fixtures';
import { bearer, post, usePaymentsApp, verifyAs, verifyBody } from '../../support/payments-app';

const OPERATOR = snowflake();
const getApp = usePaymentsApp({ OPERATOR_PROVIDER_IDS: OPERATOR });
const app = () => getApp();

const { cookie, request } = consoleRequests(app, OPERATOR);

const offerRows = () =>
  app().core.sequelize.query('SELECT to_jsonb(o) AS row FROM offers o ORDER BY id', {
    type: QueryTypes.SELECT,
  });

describe('the console offers routes', () => {
  it('refuse without an operator session, and a change without X-Console-Request, writing nothing', async () => {
    await request('POST', '/api/console/offers', { code: 'KEEP10', percent: 10 });
    const before = await offerRows();
    const operator = await cookie();
    const changes = [
      { url: '/api/console/offers', payload: { code: 'DIWALI20', percent: 20 } },
      { url: '/api/console/offers/KEEP10/disable', payload: {} },
    ];

    const signedOut = await Promise.all([
      app().app.inject({ method: 'GET', url: '/api/console/offers' }),
      ...changes.map((change) =>
        app().app.inject({ method: 'POST', ...change, headers: { 'x-console-request': '1' } }),
      ),
    ]);
    const noHeader = await Promise.all(
      changes.map((change) => app().app.inject({ method: 'POST', ...change, headers: { cookie: operator } })),
    );

    expect(signedOut.map(answer)).toEqual(Array(3).fill([401, 'CONSOLE_SIGN_IN_REQUIRED']));
    expect(noHeader.map(answer)).toEqual(Array(2).fill([403, 'CSRF_HEADER_REQUIRED']));
    expect(await offerRows()).toEqual(before);
  });

  it('are not in the public OpenAPI document', async () => {
    const openapi = (await app().app.inject({ url: '/docs/json' })).json<{ paths: object }>();
    expect(Object.keys(openapi.paths).filter((path) => path.includes('offers'))).toEqual([]);
  });

  it('add an offer as the CLI does, with the operator as its actor', async () => {
    const reply = await request('POST', '/api/console/offers', {
      code: 'diwali20',
      percent: 20,
      plans: ['Monthly', 'Yearly'],
      maxRedemptions: 500,
      starts: '2026-01-01',
      ends: '2099-12-31',
      firstPurchaseOnly: true,
    });

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({
      code: 'DIWALI20',
      percentOff: 20,
      amountOff: null,
      planCodes: ['Monthly', 'Yearly'],
      maxRedemptions: 500,
      // Days as the seller types them, in REPORT_TIMEZONE (India's by default): the first to its start,
      // "valid until 2099-12-31" to the end of that day there.
      startsAt: '2025-12-31T18:30:00.000Z',
      endsAt: '2099-12-31T18:30:00.000Z',
      firstPurchaseOnly: true,
      status: 'active',
      actor: `console:ops (${OPERATOR})`,
      redemptions: 0,
      discountGiven: 0,
    });
    const capped = await request('POST', '/api/console/offers', {
      code: 'UPTO100',
      percent: 20,
      maxDiscount: '100',
    });
    expect(capped.json()).toMatchObject({ percentOff: 20, maxDiscountPaise: 10_000, maxDiscount: 100 });
    const amount = await request('POST', '/api/console/offers', {
      code: 'FIFTY',
      amount: '49.50',
      ends: '2099-11-15T18:30:00Z',
    });
    expect(amount.json()).toMatchObject({
      code: 'FIFTY',
      endsAt: '2099-11-15T18:30:00.000Z',
      percentOff: null,
      amountOffPaise: 4_950,
      amountOff: 49.5,
    });
  });

  it('refuse what the offers refuse, with their codes, writing nothing', async () => {
    await request('POST', '/api/console/offers', { code: 'TAKEN', percent: 10 });
    const before = await offerRows();

    const refused = [
      await request('POST', '/api/console/offers', { code: 'TAKEN', percent: 10 }),
      await request('POST', '/api/console/offers', { code: 'BOTH', percent: 10, amount: 5 }),
      await request('POST', '/api/console/offers', { code: 'NONE' }),
      await request('POST', '/api/console/offers', { code: 'MANY', percent: 101 }),
      await request('POST', '/api/console/offers', { code: 'TINY', amount: 0.5 }),
      await request('POST', '/api/console/offers', { code: 'NOPLAN', percent: 10, plans: ['Nope'] }),
      await request('POST', '/api/console/offers', { code: 'x!', percent: 10 }),
      await request('POST', '/api/console/offers', { code: 'ZEROCAP', percent: 10, maxRedemptions: 0 }),
      await request('POST', '/api/console/offers', { code: 'BADDAY', percent: 10, ends: 'tomorrow!!' }),
      await request('POST', '/api/console/offers', {
        code: 'BACKWARDS',
        percent: 10,
        starts: '2030-01-02',
        ends: '2030-01-01',
      }),
      await request('POST', '/api/console/offers/NOSUCH/disable', {}),
    ];

    expect(refused.map(answer)).toEqual([
      [409, 'OFFER_EXISTS'],
      [400, 'INVALID_DISCOUNT'],
      [400, 'INVALID_DISCOUNT'],
      [400, 'INVALID_DISCOUNT'],
      [400, 'INVALID_AMOUNT'],
      [400, 'UNKNOWN_PLAN'],
      [400, 'OFFER_INVALID'],
      [400, 'INVALID_CAP'],
      [400, 'INVALID_DATES'],
      [400, 'INVALID_DATES'],
      [404, 'OFFER_NOT_FOUND'],
    ]);
    expect(await offerRows()).toEqual(before);
  });

  it('list each offer with its redemptions of the cap, the discount given and what was paid; disable one', async () => {
    await request('POST', '/api/console/offers', { code: 'DIWALI20', percent: 20, maxRedemptions: 10 });
    const buyer = await createUser();
    const order = await post(
      app(),
      '/api/payment/create-order',
      {
        providerId: buyer.providerId,
        planType: 'Monthly',
        category: 'USER',
        amount: 159.2,
        offerCode: 'DIWALI20',
      },
      bearer(app(), buyer),
    );
    const checkout = await app().sandbox.razorpay.pay(order.json().id);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    const unpaid = await createUser();
    await post(
      app(),
      '/api/payment/create-order',
      {
        providerId: unpaid.providerId,
        planType: 'Monthly',
        category: 'USER',
        amount: 159.2,
        offerCode: 'DIWALI20',
      },
      bearer(app(), unpaid),
    );

    const listed = await request('GET', '/api/console/offers');

    expect(listed.statusCode).toBe(200);
    expect(listed.json().plans).toEqual([
      { code: 'Monthly', status: 'active' },
      { code: 'Yearly', status: 'active' },
    ]);
    expect(listed.json().offers).toEqual([
      expect.objectContaining({
        code: 'DIWALI20',
        maxRedemptions: 10,
        redemptions: 2,
        paidRedemptions: 1,
        discountGivenPaise: 3_980,
        discountGiven: 39.8,
        paidPaise: 15_920,
        paid: 159.2,
        link: `${app().core.config.frontendUrl}/?offer=DIWALI20`,
      }),
    ]);

    const disabled = await request('POST', '/api/console/offers/diwali20/disable', {});
    expect(disabled.json()).toMatchObject({ code: 'DIWALI20', status: 'disabled', paidRedemptions: 1 });
    expect((await showOffer(app().core.sequelize, 'DIWALI20', 60)).status).toBe('disabled');
    expect(answer(await request('POST', '/api/console/offers/DIWALI20/disable', {}))).toEqual([
      409,
      'OFFER_DISABLED',
    ]);
  });

  it("serve the offers' script to the page, which links #/offers", async () => {
    const [page, script] = await Promise.all([
      app().app.inject({ url: '/console' }),
      app().app.inject({ url: '/console/assets/console-offers.js' }),
    ]);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(page.body).toContain('<script src="/console/assets/console-offers.js" defer></script>');
    expect(page.body).toContain('href="#/offers"');
  });
});

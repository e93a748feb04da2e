import { OutboxEvent, PremiumGrant } from '../../../src/core/models';
import { applyRefund } from '../../../src/core/refunds/payment-refund';
import { RECHECKS_PER_MINUTE } from '../../../src/server/routes/payment-orders';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  manageGuild,
  MONTHLY_USER,
  orderAs,
  post,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { buyMonthFor, errorOf, get, snapshot } from '../../support/self-service';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

const recheck = (user: Parameters<typeof bearer>[1], orderId: string) =>
  post(app(), `/api/payment/orders/${orderId}/recheck`, undefined, bearer(app(), user));

describe('GET /api/payment/orders', () => {
  it("lists the caller's own orders, newest first, with status, plan, target, amount and paid-at", async () => {
    const buyer = await createUser();
    const guildId = await manageGuild(buyer);
    const unpaid = await orderAs(app(), buyer, {
      amount: 597,
      planType: 'Custom',
      months: 3,
      category: 'USER',
    });
    const { orderId: paid } = await buyMonthFor(app(), buyer, guildId);
    await orderAs(app(), await createUser(), MONTHLY_USER);

    const reply = await get(app(), '/api/payment/orders', buyer);

    expect(reply.statusCode).toBe(200);
    const { orders } = reply.json();
    expect(orders).toEqual([
      {
        orderId: paid,
        status: 'paid',
        state: 'paid',
        planType: 'Monthly',
        months: null,
        category: 'SERVER',
        guildId,
        amount: 199,
        listPrice: 199,
        discount: 0,
        offerCode: null,
        currency: 'INR',
        createdAt: expect.any(String),
        paidAt: expect.any(String),
        failedAttempt: null,
      },
      {
        orderId: unpaid.id,
        status: 'created',
        state: 'created',
        planType: 'Custom',
        months: 3,
        category: 'USER',
        guildId: null,
        amount: 597,
        listPrice: 597,
        discount: 0,
        offerCode: null,
        currency: 'INR',
        createdAt: expect.any(String),
        paidAt: null,
        failedAttempt: null,
      },
    ]);
    expect(new Date(orders[0].createdAt) >= new Date(orders[1].createdAt)).toBe(true);
    expect((await get(app(), '/api/payment/orders?limit=1', buyer)).json().orders).toHaveLength(1);
  });

  it('names a partly refunded order as the console does, not "paid"', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await buyMonthFor(app(), buyer, await manageGuild(buyer));
    await applyRefund(
      app().core.sequelize,
      {
        refundId: 'rfnd_Partly000001',
        processorOrderId: orderId,
        paymentId,
        amountPaise: 5_000,
        refundedTotal: 5_000,
      },
      { invoicing: app().core.config.invoicing },
    );

    const [order] = (await get(app(), '/api/payment/orders', buyer)).json().orders;

    expect(order).toMatchObject({ orderId, status: 'paid', state: 'partly refunded' });
  });

  it('refuses a bad limit and a missing session', async () => {
    const user = await createUser();
    expect(errorOf(await get(app(), '/api/payment/orders?limit=0', user))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    const anonymous = await app().app.inject({ method: 'GET', url: '/api/payment/orders' });
    expect(errorOf(anonymous)).toEqual({ status: 401, code: 'AUTHENTICATION_REQUIRED' });
  });
});

describe('POST /api/payment/orders/:orderId/recheck', () => {
  it('finds a payment nobody applied, grants it once through the reconciler, and says so', async () => {
    const buyer = await createUser();
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    // Paid at Razorpay, but the browser never came back and no webhook arrived.
    await app().sandbox.razorpay.pay(order.id);

    const first = await recheck(buyer, order.id);
    const again = await recheck(buyer, order.id);

    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      orderId: order.id,
      status: 'paid',
      applied: true,
      paidAt: expect.any(String),
    });
    expect(again.json()).toMatchObject({ orderId: order.id, status: 'paid', applied: false });
    const [grant, ...more] = await PremiumGrant.findAll();
    expect(more).toEqual([]);
    expect(grant).toMatchObject({ source: 'reconcile', days: 30 });
    const events = await OutboxEvent.findAll();
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ type: 'USER_PREMIUM_ADD', orderId: order.id, source: 'reconcile' }),
    ]);
  });

  it('answers an order with no payment yet as still unpaid, changing nothing', async () => {
    const buyer = await createUser();
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    const before = await snapshot(app());

    const reply = await recheck(buyer, order.id);

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({
      orderId: order.id,
      status: 'created',
      applied: false,
      paidAt: null,
    });
    expect(reply.json().message).toMatch(/no completed payment/);
    expect(await snapshot(app())).toEqual(before);
  });

  it.each([
    ["someone else's order", 'theirs'],
    ['an unknown order', 'order_Unknown000001'],
  ])(
    'refuses %s with 404 ORDER_NOT_FOUND alike (no telling which exist), writing nothing',
    async (_label, which) => {
      const owner = await createUser();
      const order = await orderAs(app(), owner, MONTHLY_USER);
      await app().sandbox.razorpay.pay(order.id);
      const caller = await createUser();
      const before = await snapshot(app());
      const orderId = which === 'theirs' ? order.id : which;

      const reply = await recheck(caller, orderId);

      expect(errorOf(reply)).toEqual({ status: 404, code: 'ORDER_NOT_FOUND' });
      expect(reply.json().error.message).toBe(`no order ${orderId}`);
      expect(await snapshot(app())).toEqual(before);
    },
  );

  it('answers 502 PROCESSOR_UNAVAILABLE when Razorpay fails, writing nothing', async () => {
    const buyer = await createUser();
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    await app().sandbox.razorpay.pay(order.id);
    app().sandbox.faults.set('razorpay.orders.fetchPayments', { status: 500 });
    const before = await snapshot(app());

    const reply = await recheck(buyer, order.id);

    expect(errorOf(reply)).toEqual({ status: 502, code: 'PROCESSOR_UNAVAILABLE' });
    expect(await snapshot(app())).toEqual(before);
  });

  it(`allows ${RECHECKS_PER_MINUTE} rechecks a user a minute`, async () => {
    const buyer = await createUser();
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    for (let attempt = 0; attempt < RECHECKS_PER_MINUTE; attempt += 1) {
      expect((await recheck(buyer, order.id)).statusCode).toBe(200);
    }
    expect(errorOf(await recheck(buyer, order.id))).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // Someone else is not held back.
    const other = await createUser();
    const theirs = await orderAs(app(), other, MONTHLY_USER);
    expect((await recheck(other, theirs.id)).statusCode).toBe(200);
  });
});

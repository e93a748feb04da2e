import { Order, type User } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import { bearer, MONTHLY_USER, orderAs, post, usePaymentsApp } from '../../support/payments-app';

const getApp = usePaymentsApp({ MAX_OPEN_ORDERS: '3' });

const custom = (months: number) => ({ amount: months * 199, planType: 'Custom', months, category: 'USER' });
const createOrderAs = (user: User, body: object) =>
  post(
    getApp(),
    '/api/payment/create-order',
    { providerId: user.providerId, ...body },
    bearer(getApp(), user),
  );
const age = (orderId: string, ms: number) =>
  Order.update({ createdAt: new Date(Date.now() - ms) }, { where: { processorOrderId: orderId } });
const HOUR = 3_600_000;

describe('create-order is bounded', () => {
  it("hands out the buyer's unpaid order of the last hour for the same target and plan again", async () => {
    const user = await createUser();
    const created = getApp().sandbox.razorpay.ordersCreated();
    const first = await orderAs(getApp(), user, MONTHLY_USER);
    const again = await orderAs(getApp(), user, MONTHLY_USER);

    expect(again).toEqual(getApp().sandbox.razorpay.order(first.id));
    expect(getApp().sandbox.razorpay.ordersCreated()).toBe(created + 1);
    expect(await Order.count()).toBe(1);

    // Another plan, another buyer, or an hour later: a new order.
    expect((await orderAs(getApp(), user, custom(2))).id).not.toBe(first.id);
    expect((await orderAs(getApp(), await createUser(), MONTHLY_USER)).id).not.toBe(first.id);
    await age(first.id, HOUR + 60_000);
    expect((await orderAs(getApp(), user, MONTHLY_USER)).id).not.toBe(first.id);
    expect(await Order.count()).toBe(4);
  });

  it('creates one order for twenty requests at once', async () => {
    const user = await createUser();
    const orders = await Promise.all(Array.from({ length: 20 }, () => orderAs(getApp(), user, MONTHLY_USER)));
    expect(new Set(orders.map((order) => order.id)).size).toBe(1);
    expect(await Order.count()).toBe(1);
  });

  it('refuses a buyer with MAX_OPEN_ORDERS unpaid orders from the last 24 hours: 429 TOO_MANY_OPEN_ORDERS, nothing created', async () => {
    const user = await createUser();
    const open = [];
    for (const months of [1, 2, 3]) open.push(await orderAs(getApp(), user, custom(months)));
    const created = getApp().sandbox.razorpay.ordersCreated();

    const refused = await createOrderAs(user, custom(4));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: {
        code: 'TOO_MANY_OPEN_ORDERS',
        message: expect.any(String),
        details: { retryAt: expect.any(String) },
      },
    });
    // Without a payment, a place frees when the oldest open order is 24 hours old.
    const oldest = await Order.findOne({ where: { processorOrderId: open[0]!.id } });
    expect(new Date(refused.json().error.details.retryAt)).toEqual(
      new Date(oldest!.createdAt.getTime() + 24 * HOUR),
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(getApp().sandbox.razorpay.ordersCreated()).toBe(created);
    expect(await Order.count()).toBe(3);
    // An order already open is still handed out.
    expect((await orderAs(getApp(), user, custom(1))).id).toBe(open[0]!.id);

    // A paid order and one older than 24 hours no longer count.
    await Order.update(
      { status: 'paid', paymentId: 'pay_BoundedOrders01', paidAt: new Date() },
      { where: { processorOrderId: open[1]!.id } },
    );
    await age(open[2]!.id, 25 * HOUR);
    expect((await createOrderAs(user, custom(4))).statusCode).toBe(200);
    expect((await createOrderAs(user, custom(5))).statusCode).toBe(200);
    expect((await createOrderAs(user, custom(6))).statusCode).toBe(429);
  });
});

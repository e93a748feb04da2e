import { Order, type User } from '../../../src/core/models';
import { createUser, snowflake } from '../../support/fixtures';
import { bearer, manageGuild, MONTHLY_USER, orderAs, post, usePaymentsApp } from '../../support/payments-app';

// Low, so that a slow processor is given up on quickly; the sandbox answers far sooner.
const getApp = usePaymentsApp({ PROVIDER_TIMEOUT_MS: '1000' });

async function createOrderAs(user: User, body: object, asUser = user) {
  return post(
    getApp(),
    '/api/payment/create-order',
    { providerId: user.providerId, ...body },
    bearer(getApp(), asUser),
  );
}

describe('POST /api/payment/create-order', () => {
  it('creates a USER order at the Monthly price and returns the processor order unchanged', async () => {
    const user = await createUser();
    const order = await orderAs(getApp(), user, MONTHLY_USER);

    expect(order).toEqual(getApp().sandbox.razorpay.order(order.id));
    expect(order).toMatchObject({ entity: 'order', amount: 19_900, currency: 'INR', status: 'created' });
    expect(order.receipt!.length).toBeLessThanOrEqual(40);
    expect(order.notes).toMatchObject({
      buyer: user.providerId,
      target: `user:${user.providerId}`,
      planType: 'Monthly',
    });

    const stored = await Order.findOne({ where: { processorOrderId: order.id } });
    expect(stored).toMatchObject({
      receipt: order.receipt,
      buyerUserId: user.id,
      category: 'USER',
      guildId: null,
      planType: 'Monthly',
      months: null,
      durationDays: 30,
      amountPaise: 19_900,
      currency: 'INR',
      status: 'created',
      paymentId: null,
    });
  });

  it('defaults to a Monthly SERVER order for a guild the buyer manages', async () => {
    const user = await createUser();
    const guildId = await manageGuild(user);
    const order = await orderAs(getApp(), user, { amount: 199, guildId });

    expect(order.notes).toMatchObject({ target: `guild:${guildId}` });
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      category: 'SERVER',
      guildId,
      planType: 'Monthly',
      durationDays: 30,
    });
  });

  it.each([
    [
      'Yearly',
      { planType: 'Yearly', amount: 1999 },
      { months: null, durationDays: 365, amountPaise: 199_900 },
    ],
    [
      'Custom 1 month',
      { planType: 'Custom', months: 1, amount: 199 },
      { months: 1, durationDays: 30, amountPaise: 19_900 },
    ],
    [
      'Custom 36 months',
      { planType: 'Custom', months: 36, amount: 36 * 199 },
      { months: 36, durationDays: 1080, amountPaise: 716_400 },
    ],
  ])('prices %s on the server', async (_label, body, stored) => {
    const user = await createUser();
    const order = await orderAs(getApp(), user, { ...body, category: 'USER' });
    expect(order.amount).toBe(stored.amountPaise);
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject(stored);
  });

  it.each([
    ['an amount that is not the price', { ...MONTHLY_USER, amount: 198 }, 'AMOUNT_MISMATCH'],
    ['a fractional amount', { ...MONTHLY_USER, amount: 199.5 }, 'AMOUNT_MISMATCH'],
    ['the Monthly price for a Yearly plan', { ...MONTHLY_USER, planType: 'Yearly' }, 'AMOUNT_MISMATCH'],
    [
      'the Monthly price for 2 Custom months',
      { ...MONTHLY_USER, planType: 'Custom', months: 2 },
      'AMOUNT_MISMATCH',
    ],
    ['Custom without months', { ...MONTHLY_USER, planType: 'Custom' }, 'INVALID_MONTHS'],
    ['months on a Monthly plan', { ...MONTHLY_USER, months: 1 }, 'MONTHS_NOT_ALLOWED'],
    ['a SERVER order without a guild', { amount: 199, category: 'SERVER' }, 'GUILD_REQUIRED'],
    ['a SERVER order with a null guild', { amount: 199, guildId: null }, 'GUILD_REQUIRED'],
    ['a USER order naming a guild', { ...MONTHLY_USER, guildId: '123' }, 'GUILD_NOT_ALLOWED'],
    ['an amount below 1', { ...MONTHLY_USER, amount: 0 }, 'VALIDATION_FAILED'],
    ['an amount as a string', { ...MONTHLY_USER, amount: '199' }, 'VALIDATION_FAILED'],
    ['no amount', { planType: 'Monthly', category: 'USER' }, 'VALIDATION_FAILED'],
    ['an unknown plan', { ...MONTHLY_USER, planType: 'Weekly' }, 'VALIDATION_FAILED'],
    [
      '37 Custom months',
      { ...MONTHLY_USER, planType: 'Custom', months: 37, amount: 37 * 199 },
      'VALIDATION_FAILED',
    ],
    ['0 Custom months', { ...MONTHLY_USER, planType: 'Custom', months: 0 }, 'VALIDATION_FAILED'],
    ['an unknown category', { ...MONTHLY_USER, category: 'GUILD' }, 'VALIDATION_FAILED'],
    ['a guild id that is not a snowflake', { amount: 199, guildId: 'my-guild' }, 'VALIDATION_FAILED'],
    ['a numeric guild id', { amount: 199, guildId: 123 }, 'VALIDATION_FAILED'],
  ])('refuses %s with 400 and creates nothing', async (_label, body, code) => {
    const user = await createUser();
    const before = getApp().sandbox.razorpay.ordersCreated();
    const reply = await createOrderAs(user, body);

    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toMatchObject({ error: { code, message: expect.any(String) } });
    expect(getApp().sandbox.razorpay.ordersCreated()).toBe(before);
    expect(await Order.count()).toBe(0);
  });

  it('refuses a missing providerId, and one that is not the signed-in user', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const missing = await post(getApp(), '/api/payment/create-order', MONTHLY_USER, bearer(getApp(), user));
    expect(missing.statusCode).toBe(400);

    const forOther = await createOrderAs(other, MONTHLY_USER, user);
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().error.code).toBe('NOT_YOUR_ACCOUNT');
    expect(await Order.count()).toBe(0);
  });

  it('refuses a guild the buyer does not manage with 403, even one another user manages', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const othersGuild = await manageGuild(other);
    for (const guildId of [othersGuild, snowflake()]) {
      const reply = await createOrderAs(user, { amount: 199, guildId });
      expect(reply.statusCode).toBe(403);
      expect(reply.json().error.code).toBe('NOT_GUILD_MANAGER');
    }
    expect(await Order.count()).toBe(0);
  });

  it('requires a valid session', async () => {
    const user = await createUser();
    const anonymous = await post(getApp(), '/api/payment/create-order', {
      providerId: user.providerId,
      ...MONTHLY_USER,
    });
    expect(anonymous.statusCode).toBe(401);
    const forged = await post(
      getApp(),
      '/api/payment/create-order',
      { providerId: user.providerId, ...MONTHLY_USER },
      'Bearer a.b.c',
    );
    expect(forged.statusCode).toBe(401);
  });

  it.each([
    ['drops the connection', { drop: true } as const],
    ['answers 503 from its gateway', { status: 503 }],
    ['answers 500', { status: 500 }],
    ['is slower than PROVIDER_TIMEOUT_MS', { delayMs: 5000 }],
  ])('answers 502 and stores nothing when the processor %s', async (_label, fault) => {
    const user = await createUser();
    getApp().sandbox.faults.set('razorpay.orders.create', fault);
    const reply = await createOrderAs(user, MONTHLY_USER);

    expect(reply.statusCode).toBe(502);
    expect(reply.json()).toEqual({ error: { code: 'PROCESSOR_UNAVAILABLE', message: expect.any(String) } });
    expect(await Order.count()).toBe(0);

    // Nothing left behind holds up the same order once the processor is back.
    getApp().sandbox.faults.clear();
    expect((await createOrderAs(user, MONTHLY_USER)).statusCode).toBe(200);
    expect(await Order.count()).toBe(1);
  });

  it('answers 400 and stores nothing when the processor rejects the request', async () => {
    const user = await createUser();
    getApp().sandbox.faults.set('razorpay.orders.create', {
      status: 400,
      body: { error: { code: 'BAD_REQUEST_ERROR', description: 'receipt is too long', field: 'receipt' } },
    });
    const reply = await createOrderAs(user, MONTHLY_USER);

    expect(reply.statusCode).toBe(400);
    expect(reply.json().error).toEqual({ code: 'PROCESSOR_REJECTED', message: 'receipt is too long' });
    expect(await Order.count()).toBe(0);
  });

  it('gives every order its own receipt', async () => {
    const user = await createUser();
    const orders = await Promise.all(
      [1, 2, 3, 4, 5].map((months) =>
        orderAs(getApp(), user, { amount: months * 199, planType: 'Custom', months, category: 'USER' }),
      ),
    );
    expect(new Set(orders.map((order) => order.receipt)).size).toBe(5);
    expect(await Order.count()).toBe(5);
  });
});

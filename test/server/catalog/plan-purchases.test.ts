import { QueryTypes } from 'sequelize';
import { addPlan, addTier, archivePlan, setPlanPrice } from '../../../src/core/catalog';
import { Order, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  manageGuild,
  orderAs,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const getApp = usePaymentsApp();

const PRO = { code: 'pro', name: 'Pro', rank: 2, features: { music: true, queue: 500 } };
const PRO_MONTHLY = {
  code: 'ProMonthly',
  name: 'Pro monthly',
  tier: 'pro',
  scope: 'ANY' as const,
  days: 30,
  price: 299,
};

async function addProMonthly(overrides: Partial<typeof PRO_MONTHLY> = {}) {
  const { sequelize } = getApp().core;
  await addTier(sequelize, PRO);
  return addPlan(sequelize, null, { ...PRO_MONTHLY, ...overrides });
}

function createOrderAs(user: User, body: object) {
  return post(
    getApp(),
    '/api/payment/create-order',
    { providerId: user.providerId, ...body },
    bearer(getApp(), user),
  );
}

describe('GET /api/plans', () => {
  it('answers the seed catalog: the default tier, Monthly and Yearly at PLAN_PRICES', async () => {
    const reply = await getApp().app.inject({ method: 'GET', url: '/api/plans' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      tiers: [{ code: 'premium', name: 'Premium', rank: 1, features: {} }],
      plans: [
        {
          code: 'Monthly',
          name: 'Monthly',
          tier: 'premium',
          scope: 'ANY',
          days: 30,
          price: 199,
          currency: 'INR',
          slots: 1,
          renews: true,
          trialDays: 0,
        },
        {
          code: 'Yearly',
          name: 'Yearly',
          tier: 'premium',
          scope: 'ANY',
          days: 365,
          price: 1999,
          currency: 'INR',
          slots: 1,
          renews: true,
          trialDays: 0,
        },
      ],
    });
  });

  it('lists a tier and plan added at run time, highest tier first, and drops an archived plan', async () => {
    await addProMonthly();
    await archivePlan(getApp().core.sequelize, 'Yearly');
    const { tiers, plans } = (await getApp().app.inject({ method: 'GET', url: '/api/plans' })).json();
    expect(tiers.map((tier: { code: string }) => tier.code)).toEqual(['pro', 'premium']);
    expect(tiers[0].features).toEqual({ music: true, queue: 500 });
    expect(plans.map((plan: { code: string; price: number }) => [plan.code, plan.price])).toEqual([
      ['Monthly', 199],
      ['ProMonthly', 299],
    ]);
  });
});

describe('create-order with a catalog plan', () => {
  it('stores the plan, its tier, days and price, and the verified payment grants them', async () => {
    await addProMonthly();
    const user = await createUser();
    const order = await orderAs(getApp(), user, { plan: 'ProMonthly', amount: 299, category: 'USER' });
    expect(order).toMatchObject({ amount: 29_900, notes: { planType: 'ProMonthly', tier: 'pro' } });
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      planType: 'ProMonthly',
      tier: 'pro',
      durationDays: 30,
      amountPaise: 29_900,
      slots: 1,
    });
    const checkout = await getApp().sandbox.razorpay.pay(order.id);
    const verified = await verifyAs(getApp(), user, verifyBody(user, checkout));
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ planType: 'ProMonthly' });
    const status = await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    expect(status.json()).toMatchObject({
      isPremium: true,
      tier: 'pro',
      features: { music: true, queue: 500 },
      tiers: [{ tier: 'pro', expiresAt: verified.json().expiresAt }],
    });
  });

  it.each([
    ['an amount that is not the plan price', { plan: 'ProMonthly', amount: 199 }, 400, 'AMOUNT_MISMATCH'],
    ['an unknown plan', { plan: 'Platinum', amount: 299 }, 400, 'UNKNOWN_PLAN'],
    [
      'plan and planType naming different plans',
      { plan: 'ProMonthly', planType: 'Yearly', amount: 299 },
      400,
      'PLAN_CONFLICT',
    ],
    ['months with a catalog plan', { plan: 'ProMonthly', months: 2, amount: 299 }, 400, 'MONTHS_NOT_ALLOWED'],
  ])('refuses %s, creating nothing', async (_label, body, status, code) => {
    await addProMonthly();
    const user = await createUser();
    const reply = await createOrderAs(user, { ...body, category: 'USER' });
    expect(reply.statusCode).toBe(status);
    expect(reply.json().error.code).toBe(code);
    expect(await Order.count()).toBe(0);
  });

  it('names the price in rupees when the amount is wrong', async () => {
    await addProMonthly({ price: 249.5 });
    const user = await createUser();
    const reply = await createOrderAs(user, { plan: 'ProMonthly', amount: 249, category: 'USER' });
    expect(reply.json().error.message).toBe('the ProMonthly plan costs ₹249.50, not ₹249.00');
    expect(
      (await createOrderAs(user, { plan: 'ProMonthly', amount: 249.5, category: 'USER' })).statusCode,
    ).toBe(200);
  });

  it('refuses an archived plan with 409, and Custom once Monthly is archived', async () => {
    await addProMonthly();
    await archivePlan(getApp().core.sequelize, 'ProMonthly');
    await archivePlan(getApp().core.sequelize, 'Monthly');
    const user = await createUser();
    for (const body of [
      { plan: 'ProMonthly', amount: 299 },
      { planType: 'Monthly', amount: 199 },
      { planType: 'Custom', months: 2, amount: 398 },
    ]) {
      const reply = await createOrderAs(user, { ...body, category: 'USER' });
      expect([reply.statusCode, reply.json().error.code]).toEqual([409, 'PLAN_ARCHIVED']);
    }
    expect(await Order.count()).toBe(0);
  });

  it('refuses a plan sold for users when bought for a server, and the reverse', async () => {
    const { sequelize } = getApp().core;
    await addTier(sequelize, PRO);
    await addPlan(sequelize, null, { ...PRO_MONTHLY, code: 'ProMe', scope: 'USER' });
    await addPlan(sequelize, null, { ...PRO_MONTHLY, code: 'ProGuild', scope: 'SERVER' });
    const user = await createUser();
    const guildId = await manageGuild(user);
    const forServer = await createOrderAs(user, { plan: 'ProMe', amount: 299, guildId });
    const forUser = await createOrderAs(user, { plan: 'ProGuild', amount: 299, category: 'USER' });
    expect([forServer.statusCode, forServer.json().error.code]).toEqual([400, 'PLAN_SCOPE_MISMATCH']);
    expect([forUser.statusCode, forUser.json().error.code]).toEqual([400, 'PLAN_SCOPE_MISMATCH']);
    expect((await createOrderAs(user, { plan: 'ProGuild', amount: 299, guildId })).statusCode).toBe(200);
  });

  it('keeps an order at its price after a price change, and prices the next request anew', async () => {
    await addProMonthly();
    const user = await createUser();
    const before = await orderAs(getApp(), user, { plan: 'ProMonthly', amount: 299, category: 'USER' });
    await setPlanPrice(getApp().core.sequelize, null, 'ProMonthly', 349);

    const stale = await createOrderAs(user, { plan: 'ProMonthly', amount: 299, category: 'USER' });
    expect(stale.json().error.code).toBe('AMOUNT_MISMATCH');
    const after = await orderAs(getApp(), user, { plan: 'ProMonthly', amount: 349, category: 'USER' });
    expect(after.id).not.toBe(before.id);
    expect(after.amount).toBe(34_900);

    const checkout = await getApp().sandbox.razorpay.pay(before.id);
    expect((await verifyAs(getApp(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    expect(await Order.findOne({ where: { processorOrderId: before.id } })).toMatchObject({
      amountPaise: 29_900,
      status: 'paid',
    });
  });

  it('prices each of many concurrent orders by exactly one catalog state while the catalog changes', async () => {
    const { sequelize } = getApp().core;
    await addProMonthly();
    await addTier(sequelize, { code: 'max', name: 'Max', rank: 3 });
    const states = [
      { paise: 29_900, days: 30, tier: 'pro' },
      { paise: 34_900, days: 60, tier: 'max' },
    ];
    let flips = 0;
    let buying = true;
    const flipping = (async () => {
      while (buying) {
        const state = states[++flips % 2]!;
        await sequelize.query('UPDATE plans SET price_paise = $1, days = $2, tier = $3 WHERE code = $4', {
          bind: [state.paise, state.days, state.tier, 'ProMonthly'],
        });
      }
    })();
    const buyers = await Promise.all(Array.from({ length: 24 }, () => createUser()));
    const replies = await Promise.all(
      buyers.map((buyer, index) =>
        createOrderAs(buyer, {
          plan: 'ProMonthly',
          amount: states[index % 2]!.paise / 100,
          category: 'USER',
        }),
      ),
    );
    buying = false;
    await flipping;

    expect(flips).toBeGreaterThan(2);
    const stored = await sequelize.query<{ amount_paise: number; duration_days: number; tier: string }>(
      'SELECT amount_paise, duration_days, tier FROM orders',
      { type: QueryTypes.SELECT },
    );
    expect(stored.length).toBe(replies.filter((reply) => reply.statusCode === 200).length);
    for (const order of stored) {
      expect(states).toContainEqual({
        paise: order.amount_paise,
        days: order.duration_days,
        tier: order.tier,
      });
    }
    for (const reply of replies.filter((each) => each.statusCode !== 200)) {
      expect(reply.json().error.code).toBe('AMOUNT_MISMATCH');
    }
  });
});

describe('setPlanPrice of a renewing plan', () => {
  it('refuses without Razorpay keys to make the new Razorpay plan, changing nothing', async () => {
    const { sequelize } = getApp().core;
    await expect(setPlanPrice(sequelize, null, 'Monthly', 249)).rejects.toMatchObject({
      code: 'PROCESSOR_NOT_CONFIGURED',
    });
    const [monthly] = await sequelize.query<{ price_paise: number }>(
      "SELECT price_paise FROM plans WHERE code = 'Monthly'",
      { type: QueryTypes.SELECT },
    );
    expect(monthly!.price_paise).toBe(19_900);
    const processor = razorpayClientFor(getApp().core.config);
    const { after } = await setPlanPrice(sequelize, processor, 'Monthly', 249);
    expect(after).toMatchObject({ pricePaise: 24_900, processorPlanId: expect.stringMatching(/^plan_/) });
  });
});

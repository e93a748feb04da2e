import { QueryTypes } from 'sequelize';
import { addPlan, addTier, setPlanPrice } from '../../../src/core/catalog';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { createUser } from '../../support/fixtures';
import { createSubscriptionAs, useSubscriptionsApp } from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();

async function storedSubscription(subscriptionId: string) {
  const [row] = await getApp().core.sequelize.query<{
    processor_plan_id: string;
    amount_paise: number;
    duration_days: number;
    tier: string;
    plan_type: string;
  }>(
    `SELECT processor_plan_id, amount_paise, duration_days, tier, plan_type FROM subscriptions
     WHERE processor_subscription_id = $1`,
    { bind: [subscriptionId], type: QueryTypes.SELECT },
  );
  return row!;
}

describe('a renewing plan in the catalog', () => {
  it('is subscribed to by its code, at its own Razorpay plan, tier and days', async () => {
    const { core } = getApp();
    await addTier(core.sequelize, { code: 'pro', name: 'Pro', rank: 2 });
    const processor = razorpayClientFor(core.config);
    const plan = await addPlan(core.sequelize, processor, {
      code: 'ProYearly',
      tier: 'pro',
      scope: 'USER',
      days: 365,
      price: 2999,
      renews: true,
    });
    const processorPlan = (await processor.listPlans()).find(({ id }) => id === plan.processorPlanId);
    expect(processorPlan).toMatchObject({ period: 'yearly', interval: 1, item: { amount: 299_900 } });

    const user = await createUser();
    const created = await createSubscriptionAs(getApp(), user, { plan: 'ProYearly', category: 'USER' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ planType: 'ProYearly', tier: 'pro' });
    expect(await storedSubscription(created.json().subscriptionId)).toEqual({
      processor_plan_id: plan.processorPlanId,
      amount_paise: 299_900,
      duration_days: 365,
      tier: 'pro',
      plan_type: 'ProYearly',
    });
  });

  it('refuses a plan bought once, and a body naming no plan', async () => {
    const { core } = getApp();
    await addPlan(core.sequelize, null, { code: 'Week', tier: 'premium', scope: 'ANY', days: 7, price: 59 });
    const user = await createUser();
    const once = await createSubscriptionAs(getApp(), user, { plan: 'Week', category: 'USER' });
    const none = await createSubscriptionAs(getApp(), user, { category: 'USER' });
    expect([once.statusCode, once.json().error.code]).toEqual([400, 'PLAN_DOES_NOT_RENEW']);
    expect([none.statusCode, none.json().error.code]).toEqual([400, 'PLAN_REQUIRED']);
  });

  it('sells a renewing bundle plan as the buyer’s bundle, with no guild needed', async () => {
    const { core } = getApp();
    const processor = razorpayClientFor(core.config);
    const bundle = { code: 'TrioMonthly', tier: 'premium', scope: 'SERVER', days: 30, price: 499 } as const;
    await addPlan(core.sequelize, processor, { ...bundle, slots: 3, renews: true });
    const user = await createUser();
    const created = await createSubscriptionAs(getApp(), user, { plan: 'TrioMonthly', category: 'SERVER' });
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ planType: 'TrioMonthly', guildId: null, trialDays: 0 });
    expect(
      await core.sequelize.query('SELECT slots, guild_id, target_key FROM subscriptions', {
        type: QueryTypes.SELECT,
      }),
    ).toEqual([{ slots: 3, guild_id: null, target_key: `bundle:${user.providerId}:TrioMonthly` }]);
  });

  it('keeps a running subscription on its Razorpay plan and price when the price changes', async () => {
    const { core } = getApp();
    const first = await createSubscriptionAs(getApp(), await createUser(), {
      planType: 'Monthly',
      category: 'USER',
    });
    const before = await storedSubscription(first.json().subscriptionId);

    const { after } = await setPlanPrice(core.sequelize, razorpayClientFor(core.config), 'Monthly', 249);
    expect(after.processorPlanId).not.toBe(before.processor_plan_id);

    expect(await storedSubscription(first.json().subscriptionId)).toEqual(before);
    expect(before.amount_paise).toBe(19_900);
    const second = await createSubscriptionAs(getApp(), await createUser(), {
      plan: 'Monthly',
      category: 'USER',
    });
    expect(await storedSubscription(second.json().subscriptionId)).toMatchObject({
      processor_plan_id: after.processorPlanId,
      amount_paise: 24_900,
    });
  });
});

import { addPlan, addTier } from '../../../src/core/catalog';
import { OutboxEvent, type User } from '../../../src/core/models';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  bearer,
  deliverRefund,
  manageGuild,
  MONTHLY_USER,
  orderAs,
  paidMonthlyOrder,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const getApp = usePaymentsApp();

async function statusOf(user: User) {
  return (await getApp().app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` })).json();
}

async function dashboardOf(user: User) {
  const reply = await getApp().app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: bearer(getApp(), user) },
  });
  expect(reply.statusCode).toBe(200);
  return reply.json();
}

const near = (iso: string, expectedMs: number) => Math.abs(new Date(iso).getTime() - expectedMs) < 60_000;

describe('an upgrade bought through checkout', () => {
  it('runs Pro first, keeps the Monthly days waiting behind it, and a refund of Pro gives them back', async () => {
    const { core, sandbox } = getApp();
    await addTier(core.sequelize, { code: 'pro', name: 'Pro', rank: 2, features: { music: true } });
    await addPlan(core.sequelize, null, {
      code: 'ProMonthly',
      tier: 'pro',
      scope: 'ANY',
      days: 30,
      price: 299,
    });
    const user = await createUser();
    await paidMonthlyOrder(getApp(), user);
    const monthlyEnds = new Date((await statusOf(user)).premiumExpiresAt).getTime();

    const pro = await orderAs(getApp(), user, { plan: 'ProMonthly', amount: 299, category: 'USER' });
    const checkout = await sandbox.razorpay.pay(pro.id);
    expect((await verifyAs(getApp(), user, verifyBody(user, checkout))).statusCode).toBe(200);

    const upgraded = await statusOf(user);
    expect(upgraded).toMatchObject({ isPremium: true, tier: 'pro', features: { music: true } });
    expect(upgraded.tiers.map((each: { tier: string }) => each.tier)).toEqual(['pro', 'premium']);
    expect(near(upgraded.tiers[0].expiresAt, Date.now() + 30 * DAY_MS)).toBe(true);
    expect(near(upgraded.tiers[1].expiresAt, monthlyEnds + 30 * DAY_MS)).toBe(true);
    expect(upgraded.premiumExpiresAt).toBe(upgraded.tiers[1].expiresAt);
    // What runs now and what waits: Pro from now, Premium's 30 days from Pro's end.
    expect(near(upgraded.tiers[0].startsAt, Date.now())).toBe(true);
    expect(upgraded.tiers[1].startsAt).toBe(upgraded.tiers[0].expiresAt);
    const { userPremiumTiers } = await dashboardOf(user);
    expect(userPremiumTiers).toEqual([
      { tier: 'pro', startsAt: expect.any(String), expiresAt: upgraded.tiers[0].expiresAt },
      { tier: 'premium', startsAt: upgraded.tiers[0].expiresAt, expiresAt: upgraded.tiers[1].expiresAt },
    ]);

    expect((await deliverRefund(getApp(), pro.id)).status).toBe(200);
    const refunded = await statusOf(user);
    expect(refunded).toMatchObject({ isPremium: true, tier: 'premium', features: {} });
    expect(refunded.tiers).toHaveLength(1);
    expect(near(refunded.premiumExpiresAt, monthlyEnds)).toBe(true);

    const events = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    expect(events.map((event) => [event.type, event.payload.tier])).toEqual([
      ['USER_PREMIUM_ADD', 'premium'],
      ['USER_PREMIUM_UPDATE', 'pro'],
      ['USER_PREMIUM_UPDATE', 'premium'],
    ]);
  });

  it("keeps a server's days out of its buyer's own tiers: the status counts them, the dashboard apart", async () => {
    const { sandbox } = getApp();
    const user = await createUser();
    const guildId = await manageGuild(user);
    const order = await orderAs(getApp(), user, { ...MONTHLY_USER, category: 'SERVER', guildId });
    const checkout = await sandbox.razorpay.pay(order.id);
    expect((await verifyAs(getApp(), user, verifyBody(user, checkout))).statusCode).toBe(200);

    const dashboard = await dashboardOf(user);
    expect(dashboard).toMatchObject({ isPremium: true, userPremiumExpiresAt: null, userPremiumTiers: [] });
    expect(dashboard.guilds).toEqual([expect.objectContaining({ id: guildId, isPremium: true })]);
    // The public status keeps its meaning: the buyer's premium, server days included.
    expect((await statusOf(user)).tiers).toEqual([
      { tier: 'premium', startsAt: expect.any(String), expiresAt: dashboard.premiumExpiresAt },
    ]);
  });
});

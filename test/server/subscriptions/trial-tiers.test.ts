import { QueryTypes } from 'sequelize';
import { addPlan, addTier } from '../../../src/core/catalog';
import type { User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { subscribersReport } from '../../../src/core/reports';
import { createUser, grantRequest } from '../../support/fixtures';
import {
  cancelAs,
  chargesOf,
  createSubscriptionAs,
  HOUR_MS,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';
import { pollUntil } from '../../support/wait';

const getApp = useSubscriptionsApp();
const DAY_MS = 24 * HOUR_MS;
const GRACE_MS = 72 * HOUR_MS;

/** Tier pro (above premium) and ProTrial: 30 days of pro, ₹149, renewing, 7 days free. */
async function proTrialPlan(): Promise<void> {
  const { core } = getApp();
  await addTier(core.sequelize, { code: 'pro', name: 'Pro', rank: 2 });
  await addPlan(core.sequelize, razorpayClientFor(core.config), {
    code: 'ProTrial',
    tier: 'pro',
    scope: 'ANY',
    days: 30,
    price: 149,
    renews: true,
    trialDays: 7,
  });
}

/** The user's days per tier, as the record holds them. */
async function tierEnds(user: User): Promise<Record<string, number>> {
  const rows = await getApp().core.sequelize.query<{ tier: string; ends_at: Date }>(
    `SELECT d.tier, d.ends_at FROM user_premium_days d JOIN user_premiums r ON r.id = d.record_id
     WHERE r.user_id = $1`,
    { bind: [user.id], type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((row) => [row.tier, row.ends_at.getTime()]));
}

async function trialGrants(): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM premium_grants WHERE source = 'trial' AND kind = 'grant'`,
    { type: QueryTypes.SELECT },
  );
  return row!.n;
}

/** Creates a ProTrial subscription, authorises it at the sandbox (webhooks delivered) and verifies it. */
async function subscribeToProTrial(user: User) {
  const app = getApp();
  const created = await createSubscriptionAs(app, user, { plan: 'ProTrial', category: 'USER' });
  expect(created.statusCode).toBe(200);
  const { subscriptionId } = created.json();
  const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, {
    webhooks: true,
    method: 'upi',
    instrument: { vpa: `${user.providerId}@okbank` },
  });
  const verified = await verifySubscriptionAs(app, user, checkout);
  expect(verified.statusCode).toBe(200);
  return { created: created.json(), subscriptionId, view: verified.json() };
}

describe('a trial is the plan’s tier for its days, from now', () => {
  it('gives a holder of the plan’s tier no trial: the first charge comes when that tier’s days end', async () => {
    const app = getApp();
    await proTrialPlan();
    const user = await createUser();
    await grantPremium(app.core.sequelize, grantRequest(user.providerId));
    const pro = await grantPremium(app.core.sequelize, grantRequest(user.providerId, { tier: 'pro' }));
    const before = await tierEnds(user);
    // Pro runs first for 30 days, premium's 30 after it.
    expect(before.premium! - before.pro!).toBeGreaterThan(29 * DAY_MS);

    const { created, subscriptionId, view } = await subscribeToProTrial(user);
    expect(created).toMatchObject({ trialDays: 0, startAt: new Date(before.pro!).toISOString() });
    expect(created.firstCharge.at).toBe(created.startAt);
    // What the store says is what Razorpay will do.
    expect(app.sandbox.razorpay.subscriptions.get(subscriptionId)!.start_at).toBe(
      Math.floor(before.pro! / 1000),
    );
    expect(view.trial).toBeNull();
    expect(await trialGrants()).toBe(0);
    expect(await tierEnds(user)).toEqual(before);

    // The Pro purchase refunded, the subscription cancelled: no pro left at all.
    await revokePremium(app.core.sequelize, {
      target: { grantId: pro.grantId },
      source: 'manual',
      actor: 'test',
      reason: 'refund',
      idempotencyKey: `refund:${pro.grantId}`,
    });
    expect((await cancelAs(app, user, subscriptionId)).statusCode).toBe(200);
    expect((await tierEnds(user)).pro!).toBeLessThanOrEqual(Date.now());
  });

  it('gives a holder of a lower tier the trial from now, stacked over their days', async () => {
    const app = getApp();
    await proTrialPlan();
    const user = await createUser();
    await grantPremium(app.core.sequelize, grantRequest(user.providerId));
    const premiumEnd = (await tierEnds(user)).premium!;

    const asked = Date.now();
    const { created, view } = await subscribeToProTrial(user);
    const startAt = new Date(created.startAt).getTime();
    expect(created.trialDays).toBe(7);
    expect(startAt).toBeGreaterThanOrEqual(asked + 7 * DAY_MS);
    expect(startAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + HOUR_MS);
    expect(view.trial).toMatchObject({ status: 'running', days: 7, firstChargeAt: created.startAt });

    // Pro to the first charge and the grace a failed first charge gets; premium waits as long.
    const after = await tierEnds(user);
    expect(after.pro).toBe(startAt + GRACE_MS);
    expect(after.premium! - premiumEnd).toBeGreaterThanOrEqual(after.pro! - Date.now() - 60_000);
    expect(after.premium! - premiumEnd).toBeLessThanOrEqual(after.pro! - asked);
  });

  it('cancelled in the trial: the tier runs to the trial’s end and not an hour past it', async () => {
    const app = getApp();
    await proTrialPlan();
    const user = await createUser();
    await grantPremium(app.core.sequelize, grantRequest(user.providerId));
    const premiumEnd = (await tierEnds(user)).premium!;
    const { created, subscriptionId } = await subscribeToProTrial(user);

    const cancelled = await cancelAs(app, user, subscriptionId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', trial: { status: 'cancelled' } });
    const after = await tierEnds(user);
    expect(after.pro).toBe(new Date(created.startAt).getTime());
    // Premium waits only for the trial's days.
    expect(after.premium! - premiumEnd).toBeLessThanOrEqual(7 * DAY_MS + HOUR_MS);
    // Asked again (the webhook after the cancel), nothing more is taken.
    expect((await cancelAs(app, user, subscriptionId)).statusCode).toBe(409);
    expect(await tierEnds(user)).toEqual(after);
  });

  it('counts a subscription in MRR from its first paid charge, not in its trial', async () => {
    const app = getApp();
    await proTrialPlan();
    const user = await createUser();
    const { subscriptionId } = await subscribeToProTrial(user);
    const inTrial = await subscribersReport(app.core);
    expect(inTrial.live).toBe(1);
    expect(inTrial.mrr).toBe(0);
    expect(inTrial.liveByStanding.renewing).toEqual({ subscriptions: 0, mrr: 0 });

    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    await pollUntil('the first charge', async () => (await chargesOf(app, subscriptionId)).length === 1);
    const charged = await subscribersReport(app.core);
    expect(charged.mrr).toBe(149);
    expect(charged.liveByStanding.renewing).toEqual({ subscriptions: 1, mrr: 149 });
  });
});

import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import { subscribersReport } from '../../../src/core/reports';
import { announceTrialsEnding, TRIAL_ENDING_NOTICE_MS } from '../../../src/core/subscriptions/trials';
import type { BuyerInstrument } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import { manageGuild, type PaymentsTestApp } from '../../support/payments-app';
import {
  addTrialPlan,
  cancelAs,
  chargesOf,
  createSubscriptionAs,
  HOUR_MS,
  subscriptionRow,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';
import { pollUntil } from '../../support/wait';

const getApp = useSubscriptionsApp();
const DAY_MS = 24 * HOUR_MS;

const trialPlan = (code?: string, trialDays?: number) => addTrialPlan(getApp(), code, trialDays);

async function startSubscription(
  app: PaymentsTestApp,
  user: User,
  body: object,
  instrument: BuyerInstrument & { method?: 'upi' | 'card' } = {},
) {
  const created = await createSubscriptionAs(app, user, body);
  expect(created.statusCode).toBe(200);
  const { subscriptionId } = created.json();
  const { method, ...named } = instrument;
  const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, {
    webhooks: true,
    method: method ?? 'upi',
    instrument: { vpa: `${user.providerId}@okbank`, ...named },
  });
  const verified = await verifySubscriptionAs(app, user, checkout);
  expect(verified.statusCode).toBe(200);
  return { created: created.json(), subscriptionId, view: verified.json() };
}

async function premiumExpiry(user: User, guildId?: string): Promise<Date | null> {
  const [row] = await getApp().core.sequelize.query<{ expires_at: Date }>(
    guildId
      ? 'SELECT expires_at FROM server_premiums WHERE guild_id = $1 AND version > 0'
      : 'SELECT expires_at FROM user_premiums WHERE user_id = $1 AND version > 0',
    { bind: [guildId ?? user.id], type: QueryTypes.SELECT },
  );
  return row?.expires_at ?? null;
}

async function eventsOf(type: string): Promise<Array<Record<string, unknown>>> {
  const rows = await getApp().core.sequelize.query<{ payload: Record<string, unknown> }>(
    'SELECT payload FROM outbox WHERE type = $1 ORDER BY id',
    { bind: [type], type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.payload);
}

async function trialGrants(): Promise<Array<{ source: string; days: number }>> {
  return getApp().core.sequelize.query(
    `SELECT source, days FROM premium_grants WHERE source = 'trial' AND kind = 'grant' ORDER BY id`,
    { type: QueryTypes.SELECT },
  );
}

function runTrialEndingJob(now: Date): Promise<number> {
  const { sequelize } = getApp().core;
  return sequelize.transaction((transaction) => announceTrialsEnding(transaction, 100, 'Asia/Kolkata', now));
}

describe('a free trial of a renewing plan', () => {
  it('asks Razorpay for start_at = now + trial, grants the tier until then, and converts at the first charge', async () => {
    const app = getApp();
    await trialPlan();
    const user = await createUser();
    const before = Date.now();
    const { created, subscriptionId, view } = await startSubscription(app, user, {
      plan: 'Trial7',
      category: 'USER',
    });
    const startAt = new Date(created.startAt).getTime();
    expect(startAt).toBeGreaterThanOrEqual(before + 7 * DAY_MS);
    expect(startAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + 2 * HOUR_MS);
    expect(created).toMatchObject({ trialDays: 7, firstCharge: { at: created.startAt, amount: 149 } });
    expect(app.sandbox.razorpay.subscriptions.get(subscriptionId)).toMatchObject({
      status: 'authenticated',
      start_at: Math.floor(startAt / 1000),
      paid_count: 0,
    });

    expect(view).toMatchObject({ status: 'authenticated', trial: { status: 'running', days: 7 } });
    expect(await chargesOf(app, subscriptionId)).toEqual([]);
    expect((await premiumExpiry(user))!.getTime()).toBeGreaterThanOrEqual(startAt);
    expect(await trialGrants()).toEqual([{ source: 'trial', days: 7 }]);
    const [added] = await eventsOf('USER_PREMIUM_ADD');
    expect(added).toMatchObject({ source: 'trial', trial: true, subscriptionId, tier: 'premium' });

    // The sandbox's "next cycle" control: the first charge, as it comes at start_at.
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    await pollUntil('the first charge', async () => (await chargesOf(app, subscriptionId)).length === 1);
    const [trial] = await app.core.sequelize.query<{ status: string }>('SELECT status FROM trials', {
      type: QueryTypes.SELECT,
    });
    expect(trial).toEqual({ status: 'converted' });
    const report = await subscribersReport(app.core);
    expect(report.trials).toMatchObject({ started: 1, converted: 1, cancelled: 0, refused: 0 });
  });

  it('gives a user one trial: a second subscription asks Razorpay for none', async () => {
    const app = getApp();
    await trialPlan();
    const user = await createUser();
    const { subscriptionId } = await startSubscription(app, user, { plan: 'Trial7', category: 'USER' });
    expect((await cancelAs(app, user, subscriptionId)).statusCode).toBe(200);

    const again = await createSubscriptionAs(app, user, { plan: 'Trial7', category: 'USER' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ trialDays: 0 });
    // Nor for a guild the same user buys for.
    const guildId = await manageGuild(user);
    const forGuild = await createSubscriptionAs(app, user, { plan: 'Trial7', category: 'SERVER', guildId });
    expect(forGuild.json()).toMatchObject({ trialDays: 0, startAt: null });
  });

  it('gives a guild one trial: another manager subscribes without one, charged at once', async () => {
    const app = getApp();
    await trialPlan();
    const first = await createUser();
    const guildId = await manageGuild(first);
    const { subscriptionId } = await startSubscription(app, first, {
      plan: 'Trial7',
      category: 'SERVER',
      guildId,
    });
    expect((await cancelAs(app, first, subscriptionId)).statusCode).toBe(200);
    // The trial's days run on; the other manager's subscription starts when they end.
    await app.core.sequelize.query('UPDATE server_premiums SET expires_at = now() WHERE guild_id = $1', {
      bind: [guildId],
    });

    const second = await createUser();
    await manageGuild(second, guildId);
    const {
      created,
      view,
      subscriptionId: secondId,
    } = await startSubscription(app, second, {
      plan: 'Trial7',
      category: 'SERVER',
      guildId,
    });
    expect(created).toMatchObject({ trialDays: 0, startAt: null, firstCharge: { at: null, amount: 149 } });
    expect(view.trial).toBeNull();
    expect(await chargesOf(app, secondId)).toHaveLength(1);
    expect(await trialGrants()).toHaveLength(1);
  });

  it.each([
    ['VPA', { method: 'upi' as const, vpa: 'farmer@okbank' }],
    ['card', { method: 'card' as const, card: { last4: '4242', network: 'MasterCard', issuer: 'ICIC' } }],
  ])(
    'refuses a second trial on the same %s from another account: it ends at once, with its reason',
    async (_name, instrument) => {
      const app = getApp();
      await trialPlan();
      const first = await createUser();
      await startSubscription(app, first, { plan: 'Trial7', category: 'USER' }, instrument);

      const other = await createUser();
      const { created, subscriptionId, view } = await startSubscription(
        app,
        other,
        { plan: 'Trial7', category: 'USER' },
        instrument,
      );
      // Asked for at creation (nothing knew the instrument yet), refused at authorisation.
      expect(created.trialDays).toBe(7);
      expect(view).toMatchObject({
        status: 'cancelled',
        trial: { status: 'refused', refusedReason: 'INSTRUMENT_USED' },
      });
      expect(app.sandbox.razorpay.subscriptions.get(subscriptionId)!.status).toBe('cancelled');
      expect(await premiumExpiry(other)).toBeNull();
      expect(await trialGrants()).toHaveLength(1);
      // The instrument is kept only as a keyed hash.
      const hashes = await app.core.sequelize.query<{ instrument_hash: string }>(
        'SELECT instrument_hash FROM trials',
        { type: QueryTypes.SELECT },
      );
      const instrumentText = JSON.stringify(instrument);
      for (const { instrument_hash } of hashes) {
        expect(instrument_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(instrumentText).not.toContain(instrument_hash);
      }
      const report = await subscribersReport(app.core);
      expect(report.trials).toMatchObject({ started: 1, refused: 1 });
      expect(report.trials.refusals).toEqual([
        expect.objectContaining({ subscriptionId, reason: 'INSTRUMENT_USED', providerId: other.providerId }),
      ]);
    },
  );

  it('cancelled during the trial: premium to the trial end, nothing charged', async () => {
    const app = getApp();
    await trialPlan();
    const user = await createUser();
    const { created, subscriptionId } = await startSubscription(app, user, {
      plan: 'Trial7',
      category: 'USER',
    });
    const cancelled = await cancelAs(app, user, subscriptionId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', nextChargeAt: null });
    expect((await premiumExpiry(user))!.getTime()).toBeGreaterThanOrEqual(
      new Date(created.startAt).getTime(),
    );
    await expect(
      app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true }),
    ).rejects.toThrow();
    expect(await chargesOf(app, subscriptionId)).toEqual([]);
    const report = await subscribersReport(app.core);
    expect(report.trials).toMatchObject({ started: 1, converted: 0, cancelled: 1 });
  });

  it('a failed first charge after the trial follows the grace rules, and a retry converts it', async () => {
    const app = getApp();
    await trialPlan();
    const user = await createUser();
    const { created, subscriptionId } = await startSubscription(app, user, {
      plan: 'Trial7',
      category: 'USER',
    });
    const graceUntil = new Date(
      new Date(created.startAt).getTime() + app.core.config.subscriptionGraceHours * HOUR_MS,
    );
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    await pollUntil(
      'pending',
      async () => (await subscriptionRow(app, subscriptionId))!.status === 'pending',
    );
    const [failed] = await eventsOf('USER_PREMIUM_RENEWAL_FAILED');
    expect(failed).toMatchObject({ subscriptionId, graceUntil: graceUntil.toISOString() });
    expect(await premiumExpiry(user)).toEqual(graceUntil);

    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    await pollUntil('the retried charge', async () => (await chargesOf(app, subscriptionId)).length === 1);
    expect((await premiumExpiry(user))!.getTime()).toBeGreaterThan(graceUntil.getTime());
    expect((await subscribersReport(app.core)).trials).toMatchObject({ converted: 1 });
  });

  it('announces TRIAL_ENDING once, at least 24 hours before the first charge', async () => {
    const app = getApp();
    await trialPlan();
    const user = await createUser();
    const { created, subscriptionId } = await startSubscription(app, user, {
      plan: 'Trial7',
      category: 'USER',
    });
    const firstChargeAt = new Date(created.startAt);
    expect(await eventsOf('USER_PREMIUM_TRIAL_ENDING')).toEqual([]);
    expect(await runTrialEndingJob(new Date())).toBe(0);

    const jobTime = new Date(firstChargeAt.getTime() - TRIAL_ENDING_NOTICE_MS + HOUR_MS);
    expect(await runTrialEndingJob(jobTime)).toBe(1);
    expect(await runTrialEndingJob(jobTime)).toBe(0);
    expect(await runTrialEndingJob(new Date(jobTime.getTime() + HOUR_MS))).toBe(0);
    const events = await eventsOf('USER_PREMIUM_TRIAL_ENDING');
    expect(events).toEqual([
      expect.objectContaining({
        subscriptionId,
        trial: true,
        firstChargeAt: firstChargeAt.toISOString(),
        amount: 149,
        providerId: user.providerId,
      }),
    ]);
    expect(firstChargeAt.getTime() - jobTime.getTime()).toBeGreaterThanOrEqual(24 * HOUR_MS);
  });

  it('announces TRIAL_ENDING of a trial shorter than the notice when it starts, still 24 hours ahead', async () => {
    const app = getApp();
    await trialPlan('Trial1', 1);
    const user = await createUser();
    const { created } = await startSubscription(app, user, { plan: 'Trial1', category: 'USER' });
    const events = await eventsOf('USER_PREMIUM_TRIAL_ENDING');
    expect(events).toHaveLength(1);
    const notice = new Date(created.startAt).getTime() - new Date(events[0]!.occurredAt as string).getTime();
    expect(notice).toBeGreaterThanOrEqual(24 * HOUR_MS);
    expect(await runTrialEndingJob(new Date())).toBe(0);
    expect(await eventsOf('USER_PREMIUM_TRIAL_ENDING')).toHaveLength(1);
  });
});

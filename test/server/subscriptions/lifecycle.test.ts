import { QueryTypes } from 'sequelize';
import { announceExpiries } from '../../../src/core/premium/expiry';
import { isRenewedBySubscription } from '../../../src/core/subscriptions/renewal';
import { createUser, DAY_MS } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { readStream, type StreamEvent } from '../../support/outbox-stream';
import { useRelays } from '../../support/relays';
import { bearer, manageGuild } from '../../support/payments-app';
import {
  cancelAs,
  chargesOf,
  HOUR_MS,
  ledger,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
  createSubscriptionAs,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';

const GRACE_MS = 72 * HOUR_MS;

describe('a subscription, from subscribing to its end', () => {
  const getApp = useSubscriptionsApp();
  const startRelay = useRelays();

  async function streamOf(count: number): Promise<StreamEvent[]> {
    const { core, redis } = getApp();
    return pollUntil(`${count} stream entries`, async () => {
      const events = await readStream(redis, core.config.eventsStream);
      return events.length >= count && events;
    });
  }

  /** Empties the stream once the relay has sent what the outbox still held (it would land after). */
  async function clearStream(): Promise<void> {
    const { core, redis } = getApp();
    await pollUntil('the outbox to drain', async () => {
      const [row] = await core.sequelize.query<{ pending: number }>(
        'SELECT count(*)::int AS pending FROM outbox WHERE dead_at IS NULL',
        { type: QueryTypes.SELECT },
      );
      return row!.pending === 0;
    });
    await redis.del(core.config.eventsStream);
  }

  async function userRecord(userId: number) {
    const [row] = await getApp().core.sequelize.query<{ expires_at: Date; version: number }>(
      'SELECT expires_at, version FROM user_premiums WHERE user_id = $1',
      { bind: [userId], type: QueryTypes.SELECT },
    );
    return row!;
  }

  /** Each subscription grant runs the record to the later of its extension and the cycle's end plus the grace. */
  function expectGrantFloor(
    grant: { expires_before: Date | null; expires_after: Date; days: number },
    cycleEnd: Date,
  ) {
    const extended = (grant.expires_before?.getTime() ?? 0) + grant.days * DAY_MS;
    expect(grant.expires_after.getTime()).toBeGreaterThanOrEqual(cycleEnd.getTime() + GRACE_MS);
    expect([extended, cycleEnd.getTime() + GRACE_MS]).toContain(grant.expires_after.getTime());
  }

  beforeEach(clearStream);

  it('charges, renews three times, survives a failed charge, refunds one cycle and cancels at cycle end', async () => {
    const app = getApp();
    const { sandbox } = app;
    startRelay(app.core.config);
    const user = await createUser();

    // Subscribe: nothing to defer, so the mandate's first charge is the first cycle.
    const created = await createSubscriptionAs(app, user, { planType: 'Monthly', category: 'USER' });
    expect(created.statusCode).toBe(200);
    const { subscriptionId, shortUrl, startAt, status } = created.json();
    expect({ status, startAt }).toEqual({ status: 'created', startAt: null });
    expect(shortUrl).toBe(`${sandbox.url}/razorpay/subscription-checkout?subscription_id=${subscriptionId}`);
    expect(sandbox.razorpay.subscriptions.get(subscriptionId)).toMatchObject({
      status: 'created',
      start_at: null,
    });

    const checkout = await sandbox.razorpay.subscriptions.authorize(subscriptionId, { webhooks: true });
    const verified = await verifySubscriptionAs(app, user, checkout);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      subscriptionId,
      status: 'active',
      paidCount: 1,
      cancelAtCycleEnd: false,
    });
    const [first] = await chargesOf(app, subscriptionId);
    expect(first).toMatchObject({
      payment_id: checkout.razorpay_payment_id,
      status: 'charged',
      source: 'webhook',
    });
    expect(verified.json().premiumExpiresAt).toBe(
      new Date(first!.cycle_end!.getTime() + GRACE_MS).toISOString(),
    );

    // Three renewals, each granting its cycle once.
    for (let renewal = 0; renewal < 3; renewal++) {
      await sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    }
    const charges = await chargesOf(app, subscriptionId);
    expect(charges).toHaveLength(4);
    let grants = await ledger(app);
    expect(grants.map((grant) => [grant.kind, grant.source, grant.days, grant.version])).toEqual([
      ['grant', 'subscription', 30, 1],
      ['grant', 'subscription', 30, 2],
      ['grant', 'subscription', 30, 3],
      ['grant', 'subscription', 30, 4],
    ]);
    grants.forEach((grant, i) => {
      expect(grant.id).toBe(charges[i]!.grant_id);
      expect(grant.reason).toBe(`subscription ${subscriptionId} payment ${charges[i]!.payment_id}`);
      expectGrantFloor(grant, charges[i]!.cycle_end!);
    });
    const afterRenewals = await userRecord(user.id);
    expect(afterRenewals).toEqual({ expires_at: grants[3]!.expires_after, version: 4 });

    let events = await streamOf(4);
    expect(events.map((event) => [event.type, event.payload.source, event.payload.subscriptionId])).toEqual(
      Array(4).fill(['USER_PREMIUM_ADD', 'subscription', subscriptionId]),
    );
    expect(events.map((event) => event.payload.expiresAt)).toEqual(
      grants.map((grant) => grant.expires_after.toISOString()),
    );

    // A failed charge: pending, the bot told, nothing extended; then the retry succeeds.
    await clearStream();
    await sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'pending' });
    expect(await userRecord(user.id)).toEqual(afterRenewals);
    events = await streamOf(1);
    expect(events[0]).toMatchObject({
      type: 'USER_PREMIUM_RENEWAL_FAILED',
      payload: {
        providerId: user.providerId,
        source: 'subscription',
        subscriptionId,
        graceUntil: afterRenewals.expires_at.toISOString(),
        expiresAt: afterRenewals.expires_at.toISOString(),
        version: 4,
      },
    });
    await sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'active', paid_count: 5 });
    grants = await ledger(app);
    expect(grants).toHaveLength(5);
    expect(grants[4]).toMatchObject({ kind: 'grant', source: 'subscription', version: 5 });

    // A refunded charge takes its cycle back.
    await clearStream();
    const refunded = (await chargesOf(app, subscriptionId))[4]!;
    await sandbox.razorpay.refund(refunded.payment_id, { webhooks: true });
    expect((await chargesOf(app, subscriptionId))[4]).toMatchObject({ status: 'refunded' });
    grants = await ledger(app);
    expect(grants[5]).toMatchObject({
      kind: 'revoke',
      source: 'subscription',
      days: -30,
      revokes_grant_id: refunded.grant_id,
      version: 6,
    });
    expect((await userRecord(user.id)).expires_at.getTime()).toBe(
      grants[4]!.expires_after.getTime() - 30 * DAY_MS,
    );
    events = await streamOf(1);
    expect(events[0]).toMatchObject({
      type: 'USER_PREMIUM_REMOVE',
      payload: {
        source: 'subscription',
        subscriptionId,
        version: 6,
        reason: expect.stringMatching(/^refund rfnd_/),
      },
    });

    // Cancel at cycle end: premium runs to the end of the last cycle paid for (the refunded one is not),
    // its grace cut once; the next cycle is not charged.
    expect(await isRenewedBySubscription(app.core.sequelize, `user:${user.providerId}`)).toBe(true);
    // The sandbox charges each renewal's cycle from now: the record runs to its four cycles' days and a grace.
    const before = await userRecord(user.id);
    const paidUntil = new Date(before.expires_at.getTime() - GRACE_MS);
    const cancelled = await cancelAs(app, user, subscriptionId);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'active', cancelAtCycleEnd: true, nextChargeAt: null });
    expect(await isRenewedBySubscription(app.core.sequelize, `user:${user.providerId}`)).toBe(false);
    const cut = { expires_at: paidUntil, version: 7 };
    expect(await userRecord(user.id)).toEqual(cut);
    await sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'cancelled', paid_count: 5 });
    expect(await userRecord(user.id)).toEqual(cut);
    grants = await ledger(app);
    expect(grants).toHaveLength(7);
    expect(grants[6]).toMatchObject({
      kind: 'revoke',
      source: 'subscription',
      days: -3,
      revokes_grant_id: null,
    });

    const listed = await app.app.inject({
      method: 'GET',
      url: '/api/payment/subscriptions',
      headers: { authorization: bearer(app, user) },
    });
    expect(listed.json()).toEqual({
      subscriptions: [expect.objectContaining({ subscriptionId, status: 'cancelled', paidCount: 5 })],
    });
  });

  it('halts after two failed charges, and premium runs out at the end of the grace', async () => {
    const app = getApp();
    startRelay(app.core.config);
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const [charge] = await chargesOf(app, subscriptionId);
    const graceUntil = new Date(charge!.cycle_end!.getTime() + GRACE_MS);
    expect((await userRecord(user.id)).expires_at).toEqual(graceUntil);
    await streamOf(1);
    await clearStream();

    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'halted', paid_count: 1 });
    const events = await streamOf(2);
    expect(events.map((event) => [event.type, event.payload.reason, event.payload.graceUntil])).toEqual([
      ['USER_PREMIUM_RENEWAL_FAILED', 'subscription pending', graceUntil.toISOString()],
      ['USER_PREMIUM_RENEWAL_FAILED', 'subscription halted', graceUntil.toISOString()],
    ]);
    expect(await userRecord(user.id)).toEqual({ expires_at: graceUntil, version: 1 });

    // Time passes beyond the grace (the stored expiry moves into the past by as much).
    for (const table of ['user_premiums', 'users']) {
      const [column, key] = table === 'users' ? ['premium_expires_at', 'id'] : ['expires_at', 'user_id'];
      await app.core.sequelize.query(
        `UPDATE ${table} SET ${column} = now() - interval '1 second' WHERE ${key} = $1`,
        { bind: [user.id] },
      );
    }
    await clearStream();
    expect(await app.core.sequelize.transaction((t) => announceExpiries(t, 100))).toBe(1);
    expect((await streamOf(1))[0]).toMatchObject({
      type: 'USER_PREMIUM_REMOVE',
      payload: { reason: 'expired', version: 2 },
    });
    const status = await app.app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` });
    expect(status.json()).toMatchObject({ isPremium: false });
    expect(await ledger(app)).toHaveLength(1);
  });

  it('defers the first charge of a guild to its current expiry, so no day is paid twice', async () => {
    const app = getApp();
    const user = await createUser();
    const guildId = await manageGuild(user);
    const expiry = new Date(Date.now() + 10 * DAY_MS);
    await app.core.sequelize.query(
      'INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version) VALUES ($1, $2, $3, 1)',
      { bind: [guildId, user.id, expiry] },
    );
    const created = await createSubscriptionAs(app, user, {
      planType: 'Yearly',
      category: 'SERVER',
      guildId,
    });
    expect(created.json()).toMatchObject({ startAt: expiry.toISOString(), category: 'SERVER', guildId });
    const { subscriptionId } = created.json();
    expect(app.sandbox.razorpay.subscriptions.get(subscriptionId)!.start_at).toBe(
      Math.floor(expiry.getTime() / 1000),
    );

    const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, { webhooks: true });
    const verified = await verifySubscriptionAs(app, user, checkout);
    expect(verified.json()).toMatchObject({
      status: 'authenticated',
      paidCount: 0,
      premiumExpiresAt: expiry.toISOString(),
    });
    expect(await ledger(app)).toEqual([]);
    expect(await isRenewedBySubscription(app.core.sequelize, `guild:${guildId}`)).toBe(true);

    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    const [grant] = await ledger(app);
    const [charge] = await chargesOf(app, subscriptionId);
    expect(grant).toMatchObject({ kind: 'grant', source: 'subscription', days: 365, expires_before: expiry });
    expectGrantFloor(grant!, charge!.cycle_end!);
  });
});

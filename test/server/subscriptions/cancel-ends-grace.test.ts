import { QueryTypes } from 'sequelize';
import { UserPremium, type User } from '../../../src/core/models';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliver, paidMonthlyOrder } from '../../support/payments-app';
import {
  cancelAs,
  chargesOf,
  HOUR_MS,
  type LedgerRow,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();
const GRACE_MS = 72 * HOUR_MS;

/** A Monthly USER subscription charged once: the record runs to its cycle's end plus the grace. */
async function chargedOnce() {
  const app = getApp();
  const user = await createUser();
  const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
  const [charge] = await chargesOf(app, subscriptionId);
  const cycleEnd = charge!.cycle_end!.getTime();
  expect(await expiryOf(user)).toBe(cycleEnd + GRACE_MS);
  return { user, subscriptionId, charge: charge!, cycleEnd };
}

async function expiryOf(user: User): Promise<number> {
  return (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.getTime();
}

/** The outbox's events of the user's record, oldest first. */
async function eventsOf(user: User): Promise<string[]> {
  const rows = await getApp().core.sequelize.query<{ type: string }>(
    `SELECT type FROM outbox WHERE payload->>'providerId' = $1 ORDER BY id`,
    { bind: [user.providerId], type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.type);
}

/** The ledger rows of the user's record: grants and revokes, oldest first. */
async function ledgerOf(user: User) {
  return getApp().core.sequelize.query<LedgerRow>(
    `SELECT id, kind, source, actor, days, expires_before, expires_after, version, reason, revokes_grant_id
     FROM premium_grants WHERE user_id = $1 ORDER BY id`,
    { bind: [user.id], type: QueryTypes.SELECT },
  );
}

describe('cancelling a paid subscription ends the grace', () => {
  it('cancelled at cycle end by the buyer, premium runs to the cycle end: one cut, one event, once', async () => {
    const { user, subscriptionId, cycleEnd } = await chargedOnce();

    for (let time = 0; time < 2; time++) {
      const cancelled = await cancelAs(getApp(), user, subscriptionId);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'active', cancelAtCycleEnd: true });
    }
    expect(await expiryOf(user)).toBe(cycleEnd);
    const [grant, cut] = await ledgerOf(user);
    expect(cut).toMatchObject({ kind: 'revoke', source: 'subscription', days: -3, revokes_grant_id: null });
    expect(cut!.expires_before!.getTime() - cut!.expires_after.getTime()).toBe(GRACE_MS);
    expect(grant).toMatchObject({ kind: 'grant', source: 'subscription' });
    expect(await eventsOf(user)).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE']);

    // Razorpay ends it at the cycle's end (subscription.cancelled): nothing more is taken.
    await getApp().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    expect(await subscriptionRow(getApp(), subscriptionId)).toMatchObject({ status: 'cancelled' });
    expect(await expiryOf(user)).toBe(cycleEnd);
    expect(await ledgerOf(user)).toHaveLength(2);
    expect(await eventsOf(user)).toHaveLength(2);
  });

  it('cancelled at Razorpay (subscription.cancelled), delivered twice and replayed, cuts the grace once', async () => {
    const { user, subscriptionId, cycleEnd } = await chargedOnce();
    const app = getApp();
    const entity = {
      ...app.sandbox.razorpay.subscriptions.get(subscriptionId)!,
      status: 'cancelled' as const,
    };

    for (const eventId of ['evt_cancel_once', 'evt_cancel_once', undefined]) {
      const delivered = await deliver(app, 'subscription.cancelled', { subscription: entity }, { eventId });
      expect(delivered.status).toBe(200);
    }
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'cancelled' });
    expect(await expiryOf(user)).toBe(cycleEnd);
    expect((await ledgerOf(user)).map((row) => [row.kind, row.days])).toEqual([
      ['grant', 30],
      ['revoke', -3],
    ]);
    expect(await eventsOf(user)).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE']);
  });

  it('days bought after the subscription are kept: only the grace goes', async () => {
    const { user, subscriptionId, cycleEnd } = await chargedOnce();
    await paidMonthlyOrder(getApp(), user);
    expect(await expiryOf(user)).toBe(cycleEnd + GRACE_MS + 30 * DAY_MS);

    expect((await cancelAs(getApp(), user, subscriptionId)).statusCode).toBe(200);

    expect(await expiryOf(user)).toBe(cycleEnd + 30 * DAY_MS);
  });

  it('a refund of the charge after the cancel still takes all of its days', async () => {
    const { user, subscriptionId, charge } = await chargedOnce();
    expect((await cancelAs(getApp(), user, subscriptionId)).statusCode).toBe(200);

    await getApp().sandbox.razorpay.refund(charge.payment_id, { webhooks: true });

    expect(await expiryOf(user)).toBeLessThanOrEqual(Date.now());
    const [grant, , refund] = await ledgerOf(user);
    expect(refund).toMatchObject({ kind: 'revoke', revokes_grant_id: grant!.id });
  });
});

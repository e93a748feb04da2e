import fc from 'fast-check';
import { QueryTypes } from 'sequelize';
import { UserPremium, type User } from '../../../src/core/models';
import type { RazorpaySubscription } from '../../../src/core/processor/subscription-types';
import type { RazorpayPayment } from '../../../src/core/processor/types';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  createSubscriptionAs,
  HOUR_MS,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();
const GRACE_MS = 72 * HOUR_MS;

interface Delivery {
  event: string;
  subscription: Partial<RazorpaySubscription>;
  payment?: Partial<RazorpayPayment>;
  /** Unix seconds: when the event happened at Razorpay. */
  createdAt: number;
}

/** Delivers a signed subscription webhook whose entity is the sandbox's, changed by `delivery`. */
async function send(subscriptionId: string, delivery: Delivery): Promise<{ status: number; body: string }> {
  const app = getApp();
  const { payload } = app.sandbox.razorpay.buildWebhook(delivery.event, {
    subscription: { ...app.sandbox.razorpay.subscriptions.get(subscriptionId)!, ...delivery.subscription },
    ...(delivery.payment && { payment: delivery.payment as RazorpayPayment }),
  });
  const body = { entity: 'event', event: delivery.event, payload, created_at: delivery.createdAt };
  return app.sandbox.razorpay.deliverWebhook(delivery.event, body, { url: app.webhookUrl });
}

async function renewalFailures(user: User): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM outbox WHERE type = 'USER_PREMIUM_RENEWAL_FAILED'
     AND payload ->> 'providerId' = $1`,
    { bind: [user.providerId], type: QueryTypes.SELECT },
  );
  return row!.count;
}

describe('subscription webhooks delivered late, replayed or out of order', () => {
  it('acknowledges a late subscription.pending or .authenticated on a renewed subscription and changes nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const firstCycle = app.sandbox.razorpay.subscriptions.get(subscriptionId)!;
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    const renewed = await subscriptionRow(app, subscriptionId);
    expect(renewed).toMatchObject({ status: 'active', paid_count: 2 });
    const record = await UserPremium.findOne({ where: { userId: user.id } });
    const failuresBefore = await renewalFailures(user);

    for (const event of ['subscription.pending', 'subscription.authenticated']) {
      const reply = await send(subscriptionId, {
        event,
        subscription: {
          ...firstCycle,
          status: event === 'subscription.pending' ? 'pending' : 'authenticated',
        },
        createdAt: firstCycle.created_at,
      });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'ignored' });
    }

    expect(await subscriptionRow(app, subscriptionId)).toEqual(renewed);
    expect(await renewalFailures(user)).toBe(failuresBefore);
    expect(await UserPremium.findOne({ where: { userId: user.id } })).toMatchObject({
      expiresAt: record!.expiresAt,
      version: record!.version,
    });
  });

  // A property: a subscription for each of many orders of delivery, 2 s measured on the shared machine.
  it('ends in the same state whatever order the events of a subscription arrive in', async () => {
    const app = getApp();
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 5, maxLength: 5 }),
        async (order) => {
          const user = await createUser();
          const created = await createSubscriptionAs(app, user, { planType: 'Monthly', category: 'USER' });
          expect(created.statusCode).toBe(200);
          const { subscriptionId } = created.json();
          const t0 = Math.floor(Date.now() / 1000);
          const cycleEnd = t0 + 30 * 86_400;
          const cycle = { current_start: t0, current_end: cycleEnd, charge_at: cycleEnd };
          const payment = {
            id: `pay_Late${subscriptionId.slice(-10)}`,
            entity: 'payment',
            amount: 19_900,
            currency: 'INR',
            status: 'captured',
            invoice_id: null,
            amount_refunded: 0,
          } as Partial<RazorpayPayment>;
          // Authorised, activated and charged, then the next charge fails (pending) and fails again (halted).
          const events: Delivery[] = [
            {
              event: 'subscription.authenticated',
              subscription: {
                status: 'authenticated',
                paid_count: 0,
                current_start: null,
                current_end: null,
              },
              createdAt: t0,
            },
            {
              event: 'subscription.activated',
              subscription: { status: 'active', paid_count: 1, ...cycle },
              createdAt: t0 + 1,
            },
            {
              event: 'subscription.charged',
              subscription: { status: 'active', paid_count: 1, ...cycle },
              payment,
              createdAt: t0 + 1,
            },
            {
              event: 'subscription.pending',
              subscription: { status: 'pending', paid_count: 1, ...cycle },
              createdAt: t0 + 60,
            },
            {
              event: 'subscription.halted',
              subscription: { status: 'halted', paid_count: 1, ...cycle },
              createdAt: t0 + 120,
            },
          ];

          for (const index of order) expect((await send(subscriptionId, events[index]!)).status).toBe(200);

          expect(await subscriptionRow(app, subscriptionId)).toMatchObject({
            status: 'halted',
            paid_count: 1,
            current_end: new Date(cycleEnd * 1000),
          });
          const record = await UserPremium.findOne({ where: { userId: user.id } });
          expect(record!.expiresAt.getTime()).toBe(cycleEnd * 1000 + GRACE_MS);
          expect(record!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 32 * DAY_MS);
        },
      ),
      { numRuns: 12 },
    );
  }, 30_000);
});

import { QueryTypes } from 'sequelize';
import type { HeldWebhook } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import { chargesOf, subscribe, useSubscriptionsApp } from '../../support/subscriptions-app';

/** The four events Razorpay sends for one charge of a subscription. */
const CHARGE_EVENTS = ['payment.captured', 'order.paid', 'invoice.paid', 'subscription.charged'];

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('a subscription charge announced four ways', () => {
  const getApp = useSubscriptionsApp();

  async function grantsOf(paymentId: string): Promise<number> {
    const [row] = await getApp().core.sequelize.query<{ grants: number }>(
      `SELECT count(*)::int AS grants FROM premium_grants WHERE reason LIKE $1`,
      { bind: [`% payment ${paymentId}`], type: QueryTypes.SELECT },
    );
    return row!.grants;
  }

  // 24 orders of delivery, a cycle each through the sandbox: 4 s measured on the shared 2-core machine.
  it('grants the cycle once, on the first of them to arrive, in every order of delivery', async () => {
    const app = getApp();
    const { razorpay } = app.sandbox;
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });

    for (const order of permutations(CHARGE_EVENTS)) {
      await razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: 'hold' });
      const held = razorpay.takeHeldWebhooks();
      expect(held.map(({ event }) => event).sort()).toEqual([...CHARGE_EVENTS].sort());
      const byName = new Map(held.map((webhook): [string, HeldWebhook] => [webhook.event, webhook]));
      const paymentId = held[0]!.body.payload.payment!.entity!.id;

      for (const [index, name] of order.entries()) {
        const answer = await razorpay.deliverWebhook(name, byName.get(name)!.body);
        expect({ name, ...answer }).toEqual({
          name,
          status: 200,
          body: JSON.stringify({ status: 'processed' }),
        });
        // The first to arrive applies the cycle; the rest find it applied.
        const charged = (await chargesOf(app, subscriptionId)).filter((c) => c.payment_id === paymentId);
        expect({ order, index, charges: charged.length, grants: await grantsOf(paymentId) }).toEqual({
          order,
          index,
          charges: 1,
          grants: 1,
        });
      }
    }
    const invoices = razorpay.subscriptions.invoices(subscriptionId);
    expect(await chargesOf(app, subscriptionId)).toHaveLength(invoices.length);
  }, 30_000);

  it('acknowledges payment.captured of an invoice that is no subscription of ours', async () => {
    const app = getApp();
    const { razorpay } = app.sandbox;
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    await razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: 'hold' });
    const captured = razorpay.takeHeldWebhooks().find(({ event }) => event === 'payment.captured')!;
    await app.core.sequelize.query(
      `UPDATE subscriptions SET processor_subscription_id = 'sub_elsewhere' WHERE processor_subscription_id = $1`,
      { bind: [subscriptionId] },
    );
    const answer = await razorpay.deliverWebhook('payment.captured', captured.body);
    expect(answer.status).toBe(200);
    const { status, reason } = JSON.parse(answer.body);
    expect({ status, reason }).toEqual({
      status: 'ignored',
      reason: `SUBSCRIPTION_NOT_FOUND: no subscription ${subscriptionId}`,
    });
  });
});

import { QueryTypes } from 'sequelize';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import { describeSubscriptionWithCharges } from '../../../src/core/subscriptions/list';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  addTrialPlan,
  createSubscriptionAs,
  subscriptionRow,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();

const reconcile = () =>
  reconcileOrders(getApp().core, razorpayClientFor(getApp().core.config), {
    since: new Date(Date.now() - DAY_MS),
  });

async function trialGrants(): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM premium_grants WHERE source = 'trial' AND kind = 'grant'`,
    { type: QueryTypes.SELECT },
  );
  return row!.n;
}

describe('the reconciler starts a trial whose webhook and verify never came', () => {
  it('once the hour to authorise has passed, from Razorpay saying `authenticated`, and only once', async () => {
    const app = getApp();
    await addTrialPlan(app);
    const user = await createUser();
    const created = await createSubscriptionAs(app, user, { plan: 'Trial7', category: 'USER' });
    const { subscriptionId, startAt } = created.json();
    // The buyer authorises the mandate; their page fails, and the webhook is lost.
    await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, { webhooks: false });

    // Within the hour to authorise, the webhook (which names the instrument) may still come.
    await reconcile();
    expect(await trialGrants()).toBe(0);
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'authenticated' });

    await app.core.sequelize.query(
      `UPDATE subscriptions SET created_at = created_at - interval '61 minutes'
       WHERE processor_subscription_id = $1`,
      { bind: [subscriptionId] },
    );
    const report = await reconcile();
    expect(report.applied).toEqual([
      {
        orderId: subscriptionId,
        paymentId: null,
        reason: 'trial started (instrument not checked: no authorisation payment was seen)',
      },
    ]);
    const view = await describeSubscriptionWithCharges(subscriptionId);
    expect(view.trial).toMatchObject({
      status: 'running',
      days: 7,
      firstChargeAt: startAt,
      instrumentUnread: 'no authorisation payment was seen',
    });
    expect(new Date(view.premiumExpiresAt!).getTime()).toBeGreaterThanOrEqual(new Date(startAt).getTime());

    const again = await reconcile();
    expect(again.applied).toEqual([]);
    expect(await trialGrants()).toBe(1);
  });
});

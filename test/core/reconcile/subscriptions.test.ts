import { QueryTypes } from 'sequelize';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { execute, selectRows } from '../../../src/core/db/database';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import { syncPlans } from '../../../src/core/subscriptions/plans-sync';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  chargesOf,
  ledger,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

describe('the reconciler, the safety net of subscription webhooks', () => {
  const getApp = useSubscriptionsApp();
  const reconcile = (dryRun = false) =>
    reconcileOrders(getApp().core, razorpayClientFor(getApp().core.config), {
      since: new Date(Date.now() - DAY_MS),
      dryRun,
    });

  async function outboxTypes(): Promise<string[]> {
    const rows = await getApp().core.sequelize.query<{ type: string }>(
      'SELECT type FROM outbox ORDER BY id',
      {
        type: QueryTypes.SELECT,
      },
    );
    return rows.map((row) => row.type);
  }

  it('applies a charge whose webhook was lost, once, through the same grant path', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const renewal = await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged');
    const lostPayment = app.sandbox.razorpay.subscriptions.invoices(subscriptionId)[0]!.payment_id;

    const dryRun = await reconcile(true);
    expect(dryRun.applied).toEqual([
      { orderId: subscriptionId, paymentId: lostPayment, reason: 'dry run: would grant 1 cycle(s)' },
    ]);
    expect(await ledger(app)).toHaveLength(1);

    const report = await reconcile();
    expect(report.applied).toEqual([
      {
        orderId: subscriptionId,
        paymentId: lostPayment,
        reason: expect.stringMatching(/^granted 1 cycle\(s\), until /),
      },
    ]);
    const grants = await ledger(app);
    expect(grants.map((grant) => [grant.source, grant.actor])).toEqual([
      ['subscription', 'razorpay-webhook'],
      ['subscription', 'reconciler'],
    ]);
    expect((await chargesOf(app, subscriptionId)).map((charge) => charge.source)).toEqual([
      'webhook',
      'reconcile',
    ]);
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({
      status: 'active',
      paid_count: renewal.paid_count,
      current_end: new Date(renewal.current_end! * 1000),
    });

    // The webhook arriving late, and the next run, change nothing.
    const again = await reconcile();
    expect(again.applied).toEqual([]);
    expect(again.skipped).toEqual([expect.objectContaining({ orderId: subscriptionId })]);
    expect(await ledger(app)).toHaveLength(2);
    expect(await outboxTypes()).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_ADD']);
  });

  it('announces a failed renewal whose webhook was lost, and grants nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed');
    await reconcile();
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'pending' });
    expect(await outboxTypes()).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_RENEWAL_FAILED']);
    await reconcile();
    expect(await outboxTypes()).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_RENEWAL_FAILED']);
  });

  it('does not grant a charge refunded before anyone applied it', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged');
    const paymentId = app.sandbox.razorpay.subscriptions.invoices(subscriptionId)[0]!.payment_id!;
    await app.sandbox.razorpay.refund(paymentId);
    const report = await reconcile();
    expect(report.applied).toEqual([]);
    expect(await ledger(app)).toHaveLength(1);
  });

  it('reports a subscription it could not check as failed, for a later run', async () => {
    const app = getApp();
    const subscriptionId = await subscribe(app, await createUser(), {
      planType: 'Monthly',
      category: 'USER',
    });
    app.sandbox.faults.set('razorpay.invoices.all', { status: 502 });
    const report = await reconcile();
    expect(report.failed).toEqual([
      { orderId: subscriptionId, paymentId: null, reason: expect.stringMatching(/^PROCESSOR_UNAVAILABLE/) },
    ]);
  });
});

describe("the scheduled run's check schedule of live subscriptions", () => {
  const getApp = useSubscriptionsApp();
  const MINUTE = 60_000;
  const scheduledRun = async (subscriptionId: string) => {
    const report = await reconcileOrders(getApp().core, razorpayClientFor(getApp().core.config), {
      since: new Date(Date.now() - DAY_MS),
      dueOnly: true,
    });
    return [...report.applied, ...report.skipped, ...report.failed].filter(
      (entry) => entry.orderId === subscriptionId,
    );
  };
  const schedule = async (subscriptionId: string) => {
    const [row] = await getApp().core.sequelize.query<{ next_check_at: Date; checks_made: number }>(
      'SELECT next_check_at, checks_made FROM subscriptions WHERE processor_subscription_id = $1',
      { bind: [subscriptionId], type: QueryTypes.SELECT },
    );
    return {
      minutesAhead: Math.round((row!.next_check_at.getTime() - Date.now()) / MINUTE),
      checksMade: row!.checks_made,
    };
  };
  const comeDue = (subscriptionId: string) =>
    getApp().core.sequelize.query(
      `UPDATE subscriptions SET next_check_at = now() - interval '1 second' WHERE processor_subscription_id = $1`,
      { bind: [subscriptionId] },
    );

  it('checks a new subscription at once, then only when due, at growing intervals, applying a lost renewal', async () => {
    const app = getApp();
    const subscriptionId = await subscribe(app, await createUser(), {
      planType: 'Monthly',
      category: 'USER',
    });

    expect(await scheduledRun(subscriptionId)).toEqual([expect.objectContaining({ paymentId: null })]);
    expect(await schedule(subscriptionId)).toEqual({ minutesAhead: 15, checksMade: 1 });

    // A renewal whose webhook was lost waits for the subscription's next check, and no longer.
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged');
    expect(await scheduledRun(subscriptionId)).toEqual([]);
    await comeDue(subscriptionId);
    const lostPayment = app.sandbox.razorpay.subscriptions.invoices(subscriptionId)[0]!.payment_id;
    expect(await scheduledRun(subscriptionId)).toEqual([
      expect.objectContaining({ paymentId: lostPayment, reason: expect.stringMatching(/^granted 1 cycle/) }),
    ]);
    expect(await schedule(subscriptionId)).toEqual({ minutesAhead: 60, checksMade: 2 });

    await comeDue(subscriptionId);
    await scheduledRun(subscriptionId);
    await comeDue(subscriptionId);
    await scheduledRun(subscriptionId);
    // Every 6 hours from then on, for as long as it lives.
    expect(await schedule(subscriptionId)).toEqual({ minutesAhead: 360, checksMade: 4 });
  });

  it('asks once per run about a due subscription it could not check, which stays due', async () => {
    const app = getApp();
    const subscriptionId = await subscribe(app, await createUser(), {
      planType: 'Monthly',
      category: 'USER',
    });
    // Due to the microsecond, as PostgreSQL writes it.
    await comeDue(subscriptionId);
    app.sandbox.faults.set('razorpay.invoices.all', { status: 502 });

    expect(await scheduledRun(subscriptionId)).toEqual([expect.objectContaining({ paymentId: null })]);
    expect(await scheduledRun(subscriptionId)).toHaveLength(1);
    expect((await schedule(subscriptionId)).checksMade).toBe(0);
  });
});

describe('plans sync', () => {
  const getApp = useSubscriptionsApp();

  it('reuses the plans it made, and makes new ones when a price changes', async () => {
    const { core } = getApp();
    const processor = razorpayClientFor(core.config);
    const first = await syncPlans(core, processor);
    expect(first.plans.map((plan) => [plan.planType, plan.amount, plan.created])).toEqual([
      ['Monthly', 199, false],
      ['Yearly', 1999, false],
    ]);
    const [monthly] = await selectRows<{ id: string }>(
      core.sequelize,
      "SELECT razorpay_plan_id AS id FROM plans WHERE code = 'Monthly'",
    );
    expect(monthly!.id).toBe(first.plans[0]!.planId);
    await execute(
      core.sequelize,
      "UPDATE plans SET price_paise = 24900, razorpay_plan_id = NULL WHERE code = 'Monthly'",
    );
    const repriced = await syncPlans(core, processor);
    expect(repriced.plans.map((plan) => plan.created)).toEqual([true, false]);
    expect(repriced.plans[0]!.planId).not.toBe(first.plans[0]!.planId);
    expect(repriced.plans[1]!.planId).toBe(first.plans[1]!.planId);
  });
});

import pino from 'pino';
import { createOrder } from '../../../src/core/payments/create-order';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { reconcileOrders, type ReconcileProgress } from '../../../src/core/payments/reconcile';
import { verifyPayment } from '../../../src/core/payments/verify-payment';
import { Order, OutboxEvent, PremiumGrant, type User } from '../../../src/core/models';
import type { RazorpayClient } from '../../../src/core/processor/razorpay-client';
import { startSandbox, type Sandbox } from '../../../src/sandbox';
import { reconcileJob } from '../../../src/worker/jobs/reconcile';
import { runExclusively } from '../../../src/worker/scheduler';
import { testConfig, useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';

const env: NodeJS.ProcessEnv = { PROVIDER_TIMEOUT_MS: '1000' };
let sandbox: Sandbox;
beforeAll(async () => {
  const { discord, razorpay } = testConfig(env);
  sandbox = await startSandbox({ discord, razorpay });
  env.RAZORPAY_API_URL = sandbox.razorpayApiUrl;
});
const getCore = useTestCore(env);
let processor: RazorpayClient;
beforeAll(() => {
  processor = razorpayClientFor(getCore().config);
});
afterEach(() => sandbox.faults.clear());
afterAll(() => sandbox.close());

const anHourAgo = () => new Date(Date.now() - 3_600_000);

async function newOrder(user: User): Promise<string> {
  const order = await createOrder(getCore(), processor, {
    callerProviderId: user.providerId,
    providerId: user.providerId,
    amount: 199,
    category: 'USER',
  });
  return order.id;
}

/** An order the buyer paid at Checkout, whose verification and webhooks never arrived. */
async function paidButUnverified(user: User): Promise<{ orderId: string; paymentId: string }> {
  const orderId = await newOrder(user);
  const checkout = await sandbox.razorpay.pay(orderId);
  return { orderId, paymentId: checkout.razorpay_payment_id };
}

/** As if the order's next check had come: the scheduled run asks about it. */
async function checkIsDue(orderId: string): Promise<void> {
  await Order.update({ nextCheckAt: new Date(Date.now() - 1000) }, { where: { processorOrderId: orderId } });
}

describe('reconcileOrders', () => {
  it('applies a paid but unverified order exactly once, and leaves unpaid orders alone', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await paidButUnverified(user);
    const unpaid = await newOrder(user);
    const progress: ReconcileProgress[] = [];

    const report = await reconcileOrders(getCore(), processor, {
      since: anHourAgo(),
      onProgress: (step) => progress.push(step),
    });

    expect(report.applied).toEqual([
      { orderId, paymentId, reason: expect.stringMatching(/^granted until /) },
    ]);
    expect(report.skipped).toEqual([{ orderId: unpaid, paymentId: null, reason: 'no captured payment' }]);
    expect(report.failed).toEqual([]);
    expect(progress.map(({ done, total, result }) => [done, total, result])).toEqual([
      [1, 2, 'applied'],
      [2, 2, 'skipped'],
    ]);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'paid',
      paymentId,
    });
    expect(await PremiumGrant.findAll()).toEqual([
      expect.objectContaining({ source: 'reconcile', days: 30 }),
    ]);
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({ type: 'USER_PREMIUM_ADD', orderId, source: 'reconcile' });

    const again = await reconcileOrders(getCore(), processor, { since: anHourAgo() });
    expect(again.applied).toEqual([]);
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
  });

  it('changes nothing in a dry run, while reporting what it would apply', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await paidButUnverified(user);

    const report = await reconcileOrders(getCore(), processor, { since: anHourAgo(), dryRun: true });

    expect(report.applied).toEqual([{ orderId, paymentId, reason: 'dry run: would grant 30 days' }]);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'created',
    });
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);
  });

  it('does not grant again an order verify-payment already applied', async () => {
    const user = await createUser();
    const orderId = await newOrder(user);
    const checkout = await sandbox.razorpay.pay(orderId);
    await verifyPayment(getCore(), {
      callerProviderId: user.providerId,
      providerId: user.providerId,
      processorOrderId: orderId,
      paymentId: checkout.razorpay_payment_id,
      signature: checkout.razorpay_signature,
    });

    const report = await reconcileOrders(getCore(), processor, { since: anHourAgo(), orderId });
    expect(report.skipped).toEqual([
      { orderId, paymentId: checkout.razorpay_payment_id, reason: 'order is already paid' },
    ]);
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('skips a captured payment whose amount differs from the stored order', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await paidButUnverified(user);
    await Order.update({ amountPaise: 39_800 }, { where: { processorOrderId: orderId } });

    const report = await reconcileOrders(getCore(), processor, { since: anHourAgo() });
    expect(report.skipped).toEqual([
      { orderId, paymentId, reason: expect.stringMatching(/^AMOUNT_MISMATCH/) },
    ]);
    expect(await PremiumGrant.count()).toBe(0);
  });

  it('lists an order the processor could not be asked about as failed, for the next run', async () => {
    const user = await createUser();
    const { orderId } = await paidButUnverified(user);
    sandbox.faults.set('razorpay.orders.fetchPayments', { status: 503 });

    const report = await reconcileOrders(getCore(), processor, { since: anHourAgo() });
    expect(report.failed).toEqual([
      { orderId, paymentId: null, reason: expect.stringMatching(/^PROCESSOR_UNAVAILABLE/) },
    ]);
    expect(await PremiumGrant.count()).toBe(0);

    sandbox.faults.clear();
    expect((await reconcileOrders(getCore(), processor, { since: anHourAgo() })).applied).toHaveLength(1);
  });

  it('looks only at orders created since the given time, unless one is named', async () => {
    const user = await createUser();
    const { orderId } = await paidButUnverified(user);
    await Order.update(
      { createdAt: new Date(Date.now() - 2 * 3_600_000) },
      { where: { processorOrderId: orderId } },
    );

    expect(await reconcileOrders(getCore(), processor, { since: anHourAgo() })).toEqual({
      applied: [],
      skipped: [],
      failed: [],
    });
    const named = await reconcileOrders(getCore(), processor, { since: anHourAgo(), orderId });
    expect(named.applied).toEqual([expect.objectContaining({ orderId })]);
    await expect(
      reconcileOrders(getCore(), processor, { since: anHourAgo(), orderId: 'order_Unknown0000001' }),
    ).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND' });
  });

  it("runs as the worker's scheduled job, under the job lock", async () => {
    const user = await createUser();
    const { orderId } = await paidButUnverified(user);
    await checkIsDue(orderId);

    expect(await runExclusively(getCore(), reconcileJob, pino({ level: 'silent' }))).toBe('ran');
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });
    expect(await PremiumGrant.findAll()).toEqual([expect.objectContaining({ source: 'reconcile' })]);
  });
});

describe("the scheduled run's growing intervals for unpaid orders", () => {
  const MINUTE = 60_000;
  const scheduledRun = () => reconcileOrders(getCore(), processor, { since: anHourAgo(), dueOnly: true });
  const stored = (orderId: string) => Order.findOne({ where: { processorOrderId: orderId } });

  it('asks about a new order after about 5 minutes, then 15 minutes, 1 hour and 6 hours later, then stops', async () => {
    const user = await createUser();
    const orderId = await newOrder(user);
    const created = await stored(orderId);
    expect(created!.nextCheckAt!.getTime() - created!.createdAt.getTime()).toBe(5 * MINUTE);

    // Not due yet: not looked at (an order asked about is reported, whatever the answer).
    expect(await scheduledRun()).toEqual({ applied: [], skipped: [], failed: [] });

    const intervals: (number | null)[] = [];
    for (let check = 1; check <= 4; check++) {
      await checkIsDue(orderId);
      const before = Date.now();
      const report = await scheduledRun();
      expect(report.skipped).toEqual([{ orderId, paymentId: null, reason: 'no captured payment' }]);
      const order = await stored(orderId);
      expect(order!.checksMade).toBe(check);
      intervals.push(order!.nextCheckAt && Math.round((order!.nextCheckAt.getTime() - before) / MINUTE));
    }
    expect(intervals).toEqual([15, 60, 360, null]);
    expect(await scheduledRun()).toEqual({ applied: [], skipped: [], failed: [] });
    // An operator can still ask about it by name.
    const named = await reconcileOrders(getCore(), processor, { since: anHourAgo(), orderId });
    expect(named.skipped).toEqual([{ orderId, paymentId: null, reason: 'no captured payment' }]);
  });

  it('keeps an order it could not check due, and applies a payment at a due check', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await paidButUnverified(user);
    await checkIsDue(orderId);
    sandbox.faults.set('razorpay.orders.fetchPayments', { status: 503 });

    expect((await scheduledRun()).failed).toEqual([expect.objectContaining({ orderId })]);
    expect(await stored(orderId)).toMatchObject({ checksMade: 0 });

    sandbox.faults.clear();
    expect((await scheduledRun()).applied).toEqual([expect.objectContaining({ orderId, paymentId })]);
    expect(await stored(orderId)).toMatchObject({ status: 'paid', nextCheckAt: null });
  });
});

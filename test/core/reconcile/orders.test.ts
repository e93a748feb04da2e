import pino from 'pino';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import type { ReconcileProgress } from '../../../src/core/reconcile/report';
import { Order, OutboxEvent, PremiumGrant, type User } from '../../../src/core/models';
import type { RazorpayClient } from '../../../src/core/processor/razorpay-client';
import type { Sandbox } from '../../../src/sandbox';
import { reconcileJob } from '../../../src/worker/jobs/reconcile';
import { runExclusively } from '../../../src/worker/scheduler';
import { createUser } from '../../support/fixtures';
import * as orders from '../../support/sandboxed-core';

const getContext = orders.useSandboxedCore({ PROVIDER_TIMEOUT_MS: '1000' });
const getCore = () => getContext().core;
let sandbox: Sandbox;
let processor: RazorpayClient;
beforeAll(() => {
  ({ sandbox, processor } = getContext());
});

const anHourAgo = () => new Date(Date.now() - 3_600_000);
const newOrder = (user: User) => orders.newOrder(getContext(), user);
const paidButUnverified = (user: User) => orders.paidButUnverified(getContext(), user);
const verifiedOrder = (user: User) => orders.verifiedOrder(getContext(), user);

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
    const { orderId, paymentId } = await verifiedOrder(user);

    const report = await reconcileOrders(getCore(), processor, { since: anHourAgo(), orderId });
    expect(report.skipped).toEqual([{ orderId, paymentId, reason: 'order is already paid' }]);
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

  it("runs as the worker's scheduled job", async () => {
    const user = await createUser();
    const { orderId } = await paidButUnverified(user);
    await checkIsDue(orderId);

    expect(await runExclusively(getCore(), reconcileJob, pino({ level: 'silent' }))).toBe('ran');
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });
    expect(await PremiumGrant.findAll()).toEqual([expect.objectContaining({ source: 'reconcile' })]);
  });
});

describe('the safety net for refunds whose webhook never came', () => {
  const logger = pino({ level: 'silent' });
  let minute = 0;
  /** The reconcile job at its next tick. */
  const runJob = () =>
    runExclusively(getCore(), reconcileJob, logger, { tick: new Date(Date.UTC(2026, 0, 1, 0, minute++)) });

  const orderStatus = async (orderId: string) =>
    (await Order.findOne({ where: { processorOrderId: orderId } }))!.status;

  it('revokes, once, the premium of a paid order refunded at Razorpay, through the refund path', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await verifiedOrder(user);
    // Refunded by the merchant; its webhook failed (here: never sent).
    await sandbox.razorpay.refund(paymentId);

    expect(await runJob()).toBe('ran');
    expect(await orderStatus(orderId)).toBe('refunded');
    expect(await PremiumGrant.findOne({ where: { kind: 'revoke' } })).toMatchObject({
      days: -30,
      source: 'reconcile',
      actor: 'reconciler',
      reason: `a refund of ${paymentId}, found by the reconciler`,
    });
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({ providerId: user.providerId, orderId, source: 'reconcile' });
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());

    // A later run changes nothing more.
    await getCore().sequelize.query(`UPDATE orders SET refund_checked_at = now() - interval '1 day'`);
    expect(await runJob()).toBe('ran');
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
    expect(await OutboxEvent.count({ where: { type: 'USER_PREMIUM_REMOVE' } })).toBe(1);
  });

  it('leaves orders that were not refunded, and asks about a paid order again only after a while', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await verifiedOrder(user);
    expect(await runJob()).toBe('ran');
    expect(await orderStatus(orderId)).toBe('paid');

    await sandbox.razorpay.refund(paymentId);
    expect(await runJob()).toBe('ran');
    // Checked a moment ago: not asked again yet.
    expect(await orderStatus(orderId)).toBe('paid');

    await getCore().sequelize.query(`UPDATE orders SET refund_checked_at = now() - interval '2 hours'`);
    expect(await runJob()).toBe('ran');
    expect(await orderStatus(orderId)).toBe('refunded');
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
  });

  it('keeps premium after a partial refund', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await verifiedOrder(user);
    await sandbox.razorpay.refund(paymentId, { amountPaise: 5_000 });

    expect(await runJob()).toBe('ran');
    expect(await orderStatus(orderId)).toBe('paid');
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(0);
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

describe('the scheduled run in keyset pages', () => {
  const scheduledRun = (options: { pageSize?: number; signal?: AbortSignal; onEach?: () => void } = {}) => {
    const checked: string[] = [];
    const run = reconcileOrders(getCore(), processor, {
      since: anHourAgo(),
      dueOnly: true,
      pageSize: options.pageSize,
      signal: options.signal,
      onProgress: (step) => {
        checked.push(step.entry.orderId);
        options.onEach?.();
      },
    });
    return run.then(() => checked);
  };
  /** Each order due since `minutesAgo[i]` minutes. */
  async function dueSince(orderIds: string[], minutesAgo: number[]): Promise<void> {
    for (const [i, orderId] of orderIds.entries()) {
      await Order.update(
        { nextCheckAt: new Date(Date.now() - minutesAgo[i]! * 60_000) },
        { where: { processorOrderId: orderId } },
      );
    }
  }

  it('reaches every due order across pages, the longest due first', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newOrder(await createUser()));
    await dueSince(ids, [1, 5, 2, 4, 3]);

    expect(await scheduledRun({ pageSize: 2 })).toEqual([ids[1], ids[3], ids[4], ids[2], ids[0]]);
    // All moved to their next check: the next run finds nothing due.
    expect(await scheduledRun({ pageSize: 2 })).toEqual([]);
  });

  it('checks first, in the next run, what a run stopped at its deadline did not reach', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newOrder(await createUser()));
    await dueSince(ids, [10, 9, 8, 7, 6]);
    const deadline = new AbortController();
    let checks = 0;
    const first = await scheduledRun({
      pageSize: 2,
      signal: deadline.signal,
      onEach: () => ++checks === 2 && deadline.abort(),
    });
    expect(first).toEqual([ids[0], ids[1]]);

    // The two checked come due again, more recently than the three left over.
    await dueSince([ids[0]!, ids[1]!], [1, 1]);
    expect(await scheduledRun({ pageSize: 2 })).toEqual([ids[2], ids[3], ids[4], ids[0], ids[1]]);
  });
});

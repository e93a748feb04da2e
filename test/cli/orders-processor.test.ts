import type { Core } from '../../src/core';
import { Order, OutboxEvent, PremiumGrant } from '../../src/core/models';
import { applyPayment } from '../../src/core/payments/apply-payment';
import { applyRefund } from '../../src/core/refunds/payment-refund';
import { razorpayClientFor } from '../../src/core/payments/processor';
import { handleWebhook } from '../../src/core/webhooks/inbox';
import { webhookSignature } from '../../src/core/processor/signatures';
import type { Sandbox } from '../../src/sandbox';
import { useTestCore } from '../support/context';
import { monthlyOrderAtSandbox, useCliSandbox } from './sandbox';
import { json } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const { sandbox: getSandbox, cli } = useCliSandbox();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = getSandbox();
});

/** A USER Monthly order created as the API creates it, paid at Razorpay, never verified here. */
async function paidButUnverifiedOrder(core: Core): Promise<string> {
  const { orderId } = await monthlyOrderAtSandbox(core, sandbox);
  await sandbox.razorpay.pay(orderId);
  return orderId;
}

describe('premium orders show', () => {
  it("shows the stored order next to Razorpay's view, and points at reconcile when they disagree", async () => {
    const orderId = await paidButUnverifiedOrder(getCore());

    const asJson = await cli(['orders', 'show', orderId, '--json']);
    const asText = await cli(['orders', 'show', orderId]);

    expect(asJson.code).toBe(0);
    expect(json(asJson)).toMatchObject({
      order: { orderId, status: 'created', amountPaise: 19_900, paymentId: null },
      grants: [],
      processor: {
        order: { id: orderId, status: 'paid' },
        payments: [{ status: 'captured', order_id: orderId }],
      },
      processorError: null,
    });
    expect(asText.stdout).toContain(`premium orders reconcile --order ${orderId}`);
  });

  it('shows a partly refunded order with what was refunded and the grant the refund gave back', async () => {
    const { orderId } = await monthlyOrderAtSandbox(getCore(), sandbox);
    const paymentId = 'pay_CliPartly00001';
    const { invoicing } = getCore().config;
    await applyPayment(
      getCore().sequelize,
      { processorOrderId: orderId, paymentId },
      { source: 'webhook', invoicing },
    );
    await applyRefund(
      getCore().sequelize,
      {
        refundId: 'rfnd_CliPartly0001',
        processorOrderId: orderId,
        paymentId,
        amountPaise: 10_000,
        refundedTotal: 10_000,
      },
      { invoicing },
    );

    const asJson = await cli(['orders', 'show', orderId, '--json']);
    const asText = await cli(['orders', 'show', orderId]);

    expect(json(asJson)).toMatchObject({
      order: { status: 'paid', state: 'partly refunded', refundedPaise: 10_000 },
    });
    // 10,000 of 19,900 paise takes 16 of the 30 days: the 14 left are granted back.
    const { grants } = json(asJson) as { grants: { kind: string; days: number }[] };
    expect(grants.map((row) => [row.kind, row.days]).sort()).toEqual([
      ['grant', 14],
      ['grant', 30],
      ['revoke', -30],
    ]);
    expect(asText.stdout).toContain(`Order       ${orderId} (partly refunded)`);
    expect(asText.stdout).toContain('Refunded    100.00 INR of 199.00 INR');
  });

  it('says when the reconciler will next ask Razorpay about an unpaid order, and when it has stopped', async () => {
    const orderId = await paidButUnverifiedOrder(getCore());
    const stored = (await Order.findOne({ where: { processorOrderId: orderId } }))!;

    const scheduled = await cli(['orders', 'show', orderId, '--json']);
    expect(json(scheduled)).toMatchObject({
      order: { nextCheckAt: stored.nextCheckAt!.toISOString(), checksMade: 0 },
    });
    expect((await cli(['orders', 'show', orderId])).stdout).toMatch(
      /Next check +\d{4}-\d\d-\d\d \d\d:\d\d IST \(in [45] minutes\) \(after 0 check\(s\)\)/,
    );

    await Order.update({ nextCheckAt: null, checksMade: 4 }, { where: { id: stored.id } });
    expect((await cli(['orders', 'show', orderId])).stdout).toContain(
      `Next check  none: stopped after 4 checks (premium orders reconcile --order ${orderId} asks now)`,
    );
  });

  it('still shows the stored order when Razorpay is down, and exits 1', async () => {
    const orderId = await paidButUnverifiedOrder(getCore());
    sandbox.faults.set('razorpay.orders.fetch', { status: 503 });

    const run = await cli(['orders', 'show', orderId, '--json']);

    expect(run.code).toBe(1);
    expect(json(run)).toMatchObject({
      order: { orderId, status: 'created' },
      processor: null,
      processorError: { code: 'PROCESSOR_UNAVAILABLE' },
    });
    expect(run.stderr).toBe('error: The payment processor answered HTTP 503 (PROCESSOR_UNAVAILABLE)\n');
  });
});

describe('an order whose payment was declined', () => {
  it('is listed and shown as payment failed, with the reason', async () => {
    const core = getCore();
    const { orderId, buyerProviderId } = await monthlyOrderAtSandbox(core, sandbox);
    await sandbox.razorpay.decline(orderId, { webhooks: 'hold' });
    const [failed] = sandbox.razorpay.takeHeldWebhooks();
    const rawBody = Buffer.from(JSON.stringify(failed!.body));
    await expect(
      handleWebhook(core, razorpayClientFor(core.config), {
        rawBody,
        signature: webhookSignature(rawBody, core.config.razorpay.webhookSecret),
        eventId: `evt_failed_${orderId}`,
      }),
    ).resolves.toEqual({ status: 'processed', event: 'payment.failed' });

    const listed = await cli(['orders', 'list', '--user', buyerProviderId]);
    expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^${orderId}\\s+payment failed\\s`));
    const shown = await cli(['orders', 'show', orderId]);
    expect(shown.stdout).toContain(`${orderId} (payment failed)`);
    expect(shown.stdout).toMatch(/^Failed +.+: The payment was declined in the sandbox checkout$/m);
    expect(json(await cli(['orders', 'show', orderId, '--json']))).toMatchObject({
      order: { status: 'created', paymentFailure: 'The payment was declined in the sandbox checkout' },
      processor: { order: { status: 'attempted' }, payments: [{ status: 'failed' }] },
    });
  });
});

describe('premium orders reconcile', () => {
  it('applies a paid but unverified order exactly once; --dry-run changes nothing', async () => {
    const orderId = await paidButUnverifiedOrder(getCore());

    const dryRun = await cli(['orders', 'reconcile', '--dry-run', '--progress', '--json']);
    expect(dryRun.code).toBe(0);
    expect(json(dryRun)).toMatchObject({ dryRun: true, applied: [{ orderId }], failed: [] });
    expect(dryRun.stderr).toBe(`1/1 applied ${orderId}\n`);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'created',
    });
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);

    const applied = await cli(['orders', 'reconcile', '--json']);
    const again = await cli(['orders', 'reconcile', '--order', orderId, '--json']);

    expect(applied.code).toBe(0);
    expect(applied.stderr).toBe('');
    expect(json(applied)).toMatchObject({ dryRun: false, applied: [{ orderId }], skipped: [], failed: [] });
    expect(json(again)).toMatchObject({
      applied: [],
      skipped: [{ orderId, reason: 'order is already paid' }],
    });
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });
    expect(await PremiumGrant.findAll()).toEqual([
      expect.objectContaining({ source: 'reconcile', days: 30 }),
    ]);
    expect(await OutboxEvent.findAll()).toEqual([expect.objectContaining({ type: 'USER_PREMIUM_ADD' })]);
  });

  it('reports orders it could not check and exits 1 when Razorpay is down', async () => {
    const orderId = await paidButUnverifiedOrder(getCore());
    sandbox.faults.set('razorpay.orders.fetchPayments', { status: 502, body: '<html>Bad gateway</html>' });

    const run = await cli(['orders', 'reconcile']);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `^RESULT +ORDER OR SUBSCRIPTION +PAYMENT +DETAIL\nfailed +${orderId} +- +PROCESSOR_UNAVAILABLE`,
      ),
    );
    expect(run.stdout).toContain('Applied 0, skipped 0, failed 1.');
    expect(run.stderr).toBe(
      'error: 1 order(s) or subscription(s) could not be checked (listed above); a later run retries them (RECONCILE_INCOMPLETE)\n',
    );
    expect(await PremiumGrant.count()).toBe(0);
  });
});

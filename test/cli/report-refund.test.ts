import type { Core } from '../../src/core';
import { Order, OutboxEvent } from '../../src/core/models';
import { applyPayment } from '../../src/core/payments/apply-payment';
import { createOrder } from '../../src/core/orders/create-order';
import { createRazorpayClient } from '../../src/core/processor/razorpay-client';
import { revenueReport, subscribersReport, type RevenueReport } from '../../src/core/reports';
import type { Sandbox } from '../../src/sandbox';
import { useTestCore } from '../support/context';
import { createUser } from '../support/fixtures';
import { CREDENTIALS, monthlyOrderAtSandbox, useCliSandbox } from './sandbox';
import { json } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const { sandbox: getSandbox, cli, cliAtTerminal } = useCliSandbox();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = getSandbox();
});

/** A USER Monthly order paid at Razorpay and applied here: 30 days of premium. */
async function paidOrder(core: Core): Promise<{ orderId: string; paymentId: string }> {
  const { orderId } = await monthlyOrderAtSandbox(core, sandbox);
  const paid = await sandbox.razorpay.pay(orderId);
  await applyPayment(
    core.sequelize,
    { processorOrderId: orderId, paymentId: paid.razorpay_payment_id },
    { source: 'webhook', invoicing: core.config.invoicing },
  );
  return { orderId, paymentId: paid.razorpay_payment_id };
}

describe('premium orders refund', () => {
  it('refunds part, then the rest, then refuses a third time; premium goes by share', async () => {
    const { orderId, paymentId } = await paidOrder(getCore());

    const half = await cli([
      'orders',
      'refund',
      orderId,
      '--amount',
      '99.50',
      '--reason',
      'half back',
      '--yes',
      '--json',
    ]);
    expect(half.code).toBe(0);
    expect(json(half)).toMatchObject({
      orderId,
      paymentId,
      amountPaise: 9_950,
      refundedTotalPaise: 9_950,
      status: 'processed',
      daysTaken: 15,
    });

    const rest = await cli(['orders', 'refund', orderId, '--reason', 'the rest', '--yes']);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toContain('99.50 INR of order');
    expect(rest.stdout).toContain('Refunded so far: 199.00 INR of 199.00 INR');
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'refunded',
    });
    expect(await OutboxEvent.count({ where: { type: 'USER_PREMIUM_REMOVE' } })).toBe(2);

    const again = await cli(['orders', 'refund', orderId, '--reason', 'oops', '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already refunded');
  });

  it('refunds once when repeated with the idempotency key it printed', async () => {
    const { orderId, paymentId } = await paidOrder(getCore());
    const refund = ['orders', 'refund', orderId, '--amount', '50', '--reason', 'goodwill', '--yes'];

    const first = await cli(refund);
    const key = /Idempotency key: (\S+)/.exec(first.stdout)![1]!;
    const again = await cli([...refund, '--idempotency-key', key, '--json']);

    expect(first.code).toBe(0);
    expect(again.code).toBe(0);
    expect(json(again)).toMatchObject({ paymentId, amountPaise: 5_000, refundedTotalPaise: 5_000 });
    expect(first.stdout).toContain(json(again).refundId);
  });

  it('refuses the same partial refund again within 10 minutes (REFUND_REPEATED) unless --again', async () => {
    const { orderId, paymentId } = await paidOrder(getCore());
    const refund = ['orders', 'refund', orderId, '--amount', '50', '--reason', 'goodwill', '--yes'];
    expect((await cli(refund)).code).toBe(0);

    const repeated = await cli(refund);
    const asJson = await cli([...refund, '--json']);
    const byPayment = await cli(['orders', 'refund', paymentId, '--amount', '50', '--reason', 'x', '--yes']);

    for (const run of [repeated, asJson, byPayment]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /was refunded ₹50\.00 0 minute\(s\) ago \(rfnd_\w+, by .+\); nothing was refunded now\. Add --again .*\(REFUND_REPEATED\)\n$/,
      );
    }
    expect(sandbox.razorpay.refunds(paymentId)).toHaveLength(1);

    // Another amount is another refund; --again makes the same one a second time, on purpose.
    expect(
      (await cli(['orders', 'refund', orderId, '--amount', '40', '--reason', 'more', '--yes'])).code,
    ).toBe(0);
    const again = await cli([...refund, '--again', '--json']);
    expect(again.code).toBe(0);
    expect(json(again)).toMatchObject({ amountPaise: 5_000, refundedTotalPaise: 14_000 });
  });

  it('at a terminal, asks before a second identical refund, saying when the first was made; y makes it', async () => {
    const { orderId, paymentId } = await paidOrder(getCore());
    expect(
      (await cli(['orders', 'refund', orderId, '--amount', '50', '--reason', 'goodwill', '--yes'])).code,
    ).toBe(0);

    const declined = await cliAtTerminal(
      ['orders', 'refund', orderId, '--amount', '50', '--reason', 'r'],
      'n\n',
    );
    const accepted = await cliAtTerminal(
      ['orders', 'refund', orderId, '--amount', '50', '--reason', 'r'],
      'y\n',
    );

    expect(declined.code).toBe(1);
    expect(accepted.code).toBe(0);
    for (const run of [declined, accepted])
      expect(run.stdout).toMatch(
        /was refunded ₹50\.00 0 minute\(s\) ago .*: this would be a second refund\. Refund 50\.00 INR/,
      );
    expect(sandbox.razorpay.refunds(paymentId)).toHaveLength(2);
  });

  it('asks before refunding, and refuses when no one is at the terminal to answer', async () => {
    const { orderId } = await paidOrder(getCore());

    const run = await cli(['orders', 'refund', orderId, '--reason', 'x']);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('add --yes');
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });
  });

  it('refuses a bad amount or id as a usage error', async () => {
    expect(
      (await cli(['orders', 'refund', 'order_X1', '--amount', '9.999', '--reason', 'x', '--yes'])).code,
    ).toBe(2);
    expect((await cli(['orders', 'refund', 'nope', '--reason', 'x', '--yes'])).code).toBe(2);
  });
});

describe('premium report', () => {
  it('prints the same revenue figures as the core report, as JSON and as a table', async () => {
    await paidOrder(getCore());
    await paidOrder(getCore());
    const before = await revenueReport(getCore(), { by: 'month' });

    const asJson = await cli(['report', 'revenue', '--by', 'month', '--json']);
    const asText = await cli(['report', 'revenue', '--by', 'month']);

    expect(asJson.code).toBe(0);
    // The default range ends today: midnight may pass while the CLI starts, moving it by a day.
    const after = await revenueReport(getCore(), { by: 'month' });
    expect([before, after]).toContainEqual(json(asJson));
    expect(before.totals).toMatchObject({ gross: 398, net: 398, payments: 2 });
    expect(asText.stdout).toMatch(/^TOTAL\s+398\.00\s+0\.00\s+0\.00\s+398\.00\s+2\s/m);
  });

  it('prints only the days something happened, the totals and how many days it left out; JSON lists all', async () => {
    await paidOrder(getCore());
    await paidOrder(getCore());

    const asJson = json<{ timeZone: string; periods: { period: string; payments: number }[] }>(
      await cli(['report', 'revenue', '--json']),
    );
    const asText = await cli(['report', 'revenue']);
    const empty = await cli(['report', 'revenue', '--from', '2025-01-01', '--to', '2025-03-31']);

    const today = asJson.periods.filter((period) => period.payments > 0);
    expect(today).toHaveLength(1);
    const lines = asText.stdout.trimEnd().split('\n');
    expect(lines.slice(2, 5)).toEqual([
      expect.stringMatching(
        new RegExp(`^${today[0]!.period}\\s+398\\.00\\s+0\\.00\\s+0\\.00\\s+398\\.00\\s+2\\s`),
      ),
      expect.stringMatching(/^TOTAL\s+398\.00\s+0\.00\s+0\.00\s+398\.00\s+2\s/),
      `Not shown: ${asJson.periods.length - 1} days with nothing paid, refunded or disputed.`,
    ]);
    // Then the range by tier, by plan and by what was bought (the kinds with money moving).
    expect(lines.slice(5)).toEqual([
      '',
      expect.stringMatching(/^By tier, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(.+\):$/),
      '  TIER               GROSS   REFUNDED  DISPUTED  NET     PAYMENTS',
      '  Premium (premium)  398.00  0.00      0.00      398.00  2',
      '',
      expect.stringMatching(/^By plan, /),
      '  PLAN     GROSS   REFUNDED  DISPUTED  NET     PAYMENTS',
      '  Monthly  398.00  0.00      0.00      398.00  2',
      '',
      expect.stringMatching(/^By purchase, /),
      '  BOUGHT  GROSS   REFUNDED  DISPUTED  NET     PAYMENTS',
      '  single  398.00  0.00      0.00      398.00  2',
    ]);
    expect(empty).toMatchObject({
      code: 0,
      stdout: `No payments, refunds or disputes from 2025-01-01 to 2025-03-31 (${asJson.timeZone}).\n`,
    });
  });

  it('splits revenue by tier and by plan, in --json per period too; each split adds up to the totals', async () => {
    await paidOrder(getCore());
    await cli(['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2']);
    await cli([
      'plans',
      'add',
      'ProWeek',
      '--tier',
      'pro',
      '--scope',
      'USER',
      '--days',
      '7',
      '--price',
      '99.50',
    ]);
    const buyer = await createUser();
    const processor = createRazorpayClient({ ...CREDENTIALS.razorpay, apiUrl: sandbox.razorpayApiUrl });
    const order = await createOrder(getCore(), processor, {
      callerProviderId: buyer.providerId,
      providerId: buyer.providerId,
      amount: 99.5,
      plan: 'ProWeek',
      category: 'USER',
    });
    const paid = await sandbox.razorpay.pay(order.id);
    await applyPayment(
      getCore().sequelize,
      { processorOrderId: order.id, paymentId: paid.razorpay_payment_id },
      { source: 'webhook', invoicing: getCore().config.invoicing },
    );

    const run = await cli(['report', 'revenue', '--json']);
    const text = await cli(['report', 'revenue']);

    const report = json<RevenueReport>(run);
    expect(report.totals).toMatchObject({ gross: 298.5, net: 298.5, payments: 2 });
    const money = { refunded: 0, disputed: 0 };
    expect(report.totals.byTier).toEqual({
      premium: { ...money, gross: 199, net: 199, payments: 1 },
      pro: { ...money, gross: 99.5, net: 99.5, payments: 1 },
    });
    expect(report.totals.byPlan).toEqual({
      Monthly: report.totals.byTier.premium,
      ProWeek: report.totals.byTier.pro,
    });
    const day = report.periods.find((period) => period.payments > 0)!;
    expect([day.byTier, day.byPlan]).toEqual([report.totals.byTier, report.totals.byPlan]);
    expect(report.periods.filter((period) => period.payments === 0).map((period) => period.byPlan)).toEqual(
      report.periods.filter((period) => period.payments === 0).map(() => ({})),
    );
    expect(report.names).toEqual({
      tiers: { premium: 'Premium', pro: 'Pro' },
      plans: { Monthly: 'Monthly', ProWeek: 'ProWeek' },
    });
    expect(text.stdout).toMatch(
      /^ {2}Premium \(premium\) +199\.00 +0\.00 +0\.00 +199\.00 +1\n^ {2}Pro \(pro\) +99\.50 +0\.00 +0\.00 +99\.50 +1$/m,
    );
    expect(text.stdout).toMatch(/^ {2}Monthly +199\.00 .+\n^ {2}ProWeek +99\.50 /m);
  });

  it('prints the subscribers report', async () => {
    const asJson = await cli(['report', 'subscribers', '--month', '2026-03', '--json']);

    expect(asJson.code).toBe(0);
    expect(json(asJson)).toEqual(await subscribersReport(getCore(), { month: '2026-03' }));
    expect(json(asJson)).toMatchObject({ live: 0, mrr: 0, churn: null });
    const asText = await cli(['report', 'subscribers', '--month', '2026-03']);
    expect(asText.stdout).toMatch(/^ {2}renewing +0\.00 INR, 0 subscription\(s\)$/m);
    expect(asText.stdout).toMatch(/^ {2}ending at cycle end +0\.00 INR, 0 subscription\(s\)$/m);
    expect(asText.stdout).toMatch(/^ {2}failing \(pending\) +0\.00 INR, 0 subscription\(s\)$/m);
  });

  it('refuses days and groupings that are not', async () => {
    expect((await cli(['report', 'revenue', '--by', 'week'])).code).toBe(2);
    expect((await cli(['report', 'revenue', '--from', '2026-1-1'])).code).toBe(2);
    const impossible = await cli(['report', 'revenue', '--from', '2026-02-30']);
    expect(impossible.code).not.toBe(0);
    expect(impossible.stderr).toContain('2026-02-30');
  });

  it('refuses a range before 2000 or over 10 years, and a month of year 0, in one clear line', async () => {
    const ancient = await cli(['report', 'revenue', '--from', '1000-01-01']);
    const decades = await cli(['report', 'revenue', '--from', '2000-01-01', '--to', '2026-01-01']);
    const yearZero = await cli(['report', 'subscribers', '--month', '0000-01']);

    expect(ancient).toMatchObject({
      code: 1,
      stderr:
        'error: from (1000-01-01) is before 2000-01-01, the first day a report covers (INVALID_RANGE)\n',
    });
    expect(decades).toMatchObject({
      code: 1,
      stderr:
        'error: from 2000-01-01 to 2026-01-01 is more than 10 years; a report covers 10 at most (INVALID_RANGE)\n',
    });
    expect(yearZero).toMatchObject({
      code: 1,
      stderr: 'error: month must be 2000-01 or later, not "0000-01" (INVALID_MONTH)\n',
    });
  });
});

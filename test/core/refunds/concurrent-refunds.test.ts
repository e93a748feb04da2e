import { QueryTypes } from 'sequelize';
import { PremiumGrant, User, WebhookEvent } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { requestRefund } from '../../../src/core/refunds';
import { createUser, DAY_MS } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { paidMonthlyOrder, paymentOf, usePaymentsApp } from '../../support/payments-app';

// Razorpay answers a refund 1.5 s after making it; its webhook may come first.
jest.setTimeout(20_000);

const getApp = usePaymentsApp();
const app = () => getApp();
const processor = () => razorpayClientFor(app().core.config);

beforeEach(() => app().sandbox.razorpay.setWebhookUrl(app().webhookUrl));

const slowRazorpay = () => app().sandbox.faults.set('razorpay.payments.refund', { answerDelayMs: 1_500 });

const refund = (orderId: string, amountPaise?: number, idempotencyKey?: string) =>
  requestRefund(app().core, processor(), {
    orderId,
    amountPaise,
    idempotencyKey,
    reason: 'asked by mail',
    actor: 'alice',
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const refundRows = (paymentId: string) =>
  app().core.sequelize.query<{ refundId: string; amount: number; status: string; daysTaken: number }>(
    `SELECT refund_id AS "refundId", amount_paise AS amount, status, days_taken AS "daysTaken"
     FROM payment_refunds WHERE payment_id = $1 ORDER BY id`,
    { bind: [paymentId], type: QueryTypes.SELECT },
  );

const refundWebhooks = (count: number) =>
  pollUntil(
    `${count} refund.processed`,
    async () => (await WebhookEvent.count({ where: { eventType: 'refund.processed' } })) >= count,
  );

async function daysLeft(buyer: User): Promise<number> {
  await buyer.reload();
  return Math.max(0, Math.round(((buyer.premiumExpiresAt?.getTime() ?? Date.now()) - Date.now()) / DAY_MS));
}

describe('refunds of one payment while Razorpay is slow to answer', () => {
  it('two ₹50 refunds asked 0.3 s apart are two refunds, each recorded, each caller answered', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await paidMonthlyOrder(app(), buyer);
    slowRazorpay();

    const first = refund(orderId, 5_000);
    await sleep(300);
    const [a, b] = await Promise.all([first, refund(orderId, 5_000)]);
    await refundWebhooks(2);

    expect(a).toMatchObject({ amountPaise: 5_000, status: 'processed' });
    expect(b).toMatchObject({ amountPaise: 5_000, refundedTotalPaise: 10_000, status: 'processed' });
    const atRazorpay = app().sandbox.razorpay.refunds(paymentId);
    expect(atRazorpay.map((made) => made.id).sort()).toEqual([a.refundId, b.refundId].sort());
    expect(new Set(atRazorpay.map((made) => made.receipt)).size).toBe(2);
    const rows = await refundRows(paymentId);
    expect(rows).toEqual([
      { refundId: a.refundId, amount: 5_000, status: 'processed', daysTaken: 8 },
      { refundId: b.refundId, amount: 5_000, status: 'processed', daysTaken: 8 },
    ]);
    // 10,000 of 19,900 paise is 15.08 of the 30 days: 16 go.
    expect(await daysLeft(buyer)).toBe(14);
  });

  it('refunds once for one idempotency key sent twice at once, and answers both with that refund', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    slowRazorpay();

    const first = refund(orderId, 1_990, 'console-refund-dialog-1');
    await sleep(300);
    const [a, b] = await Promise.all([first, refund(orderId, 1_990, 'console-refund-dialog-1')]);

    expect(b).toEqual(a);
    expect(app().sandbox.razorpay.refunds(paymentId)).toHaveLength(1);
    expect(await refundRows(paymentId)).toHaveLength(1);
    await expect(refund(orderId, 2_990, 'console-refund-dialog-1')).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it('answers success when the refund webhook settled the order before Razorpay answered', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await paidMonthlyOrder(app(), buyer);
    slowRazorpay();

    const result = await refund(orderId);

    expect(result).toMatchObject({ amountPaise: 19_900, refundedTotalPaise: 19_900, status: 'processed' });
    expect(await WebhookEvent.count({ where: { eventType: 'refund.processed' } })).toBe(1);
    expect(await refundRows(paymentId)).toEqual([
      { refundId: result.refundId, amount: 19_900, status: 'processed', daysTaken: 0 },
    ]);
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
    expect(await daysLeft(buyer)).toBe(0);
  });
});

describe('a refund Razorpay made under a receipt that names another refund of ours', () => {
  it('is recorded as a refund of its own, and its webhook takes its share of the days', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await paidMonthlyOrder(app(), buyer);
    const ours = await refund(orderId, 5_000);
    await refundWebhooks(1);
    const receipt = app().sandbox.razorpay.refunds(paymentId)[0]!.receipt!;

    await app().sandbox.razorpay.refund(paymentId, { amountPaise: 5_000, receipt, webhooks: true });
    await refundWebhooks(2);

    const rows = await refundRows(paymentId);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ refundId: ours.refundId, status: 'processed' });
    expect(rows[1]).toMatchObject({ refundId: expect.stringMatching(/^rfnd_/), status: 'processed' });
    expect(rows[0]!.daysTaken + rows[1]!.daysTaken).toBe(16);
    expect(await daysLeft(buyer)).toBe(14);
    expect(paymentOf(app(), orderId)).toMatchObject({ amount_refunded: 10_000 });
  });
});

describe("Razorpay's refund idempotency, through the client", () => {
  it('answers the same key with the same refund, and one still being answered as unavailable, never refused', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    const input = { amount: 1_000, receipt: `r_${orderId}`, idempotencyKey: `key-${orderId}` };
    slowRazorpay();

    const first = processor().refundPayment(paymentId, input);
    await sleep(300);
    await expect(processor().refundPayment(paymentId, input)).rejects.toMatchObject({
      kind: 'unavailable',
    });
    const made = await first;

    app().sandbox.faults.clear();
    expect(await processor().refundPayment(paymentId, input)).toEqual(made);
    await expect(processor().refundPayment(paymentId, { ...input, amount: 2_000 })).rejects.toMatchObject({
      code: 'PROCESSOR_REJECTED',
      message: expect.stringContaining('same idempotency key'),
    });
    expect(app().sandbox.razorpay.refunds(paymentId)).toHaveLength(1);
  });
});

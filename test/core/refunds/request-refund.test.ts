import { QueryTypes } from 'sequelize';
import { Order, OutboxEvent, PremiumGrant, User, WebhookEvent } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { requestRefund } from '../../../src/core/refunds';
import { createUser, DAY_MS } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { MONTHLY_USER, orderAs, paidMonthlyOrder, usePaymentsApp } from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = () => getApp();
const processor = () => razorpayClientFor(app().core.config);

beforeEach(() => app().sandbox.razorpay.setWebhookUrl(app().webhookUrl));

/** A Monthly USER order bought and verified through the API: 30 days of premium from now. */
async function boughtOrder() {
  const buyer = await createUser();
  return { buyer, ...(await paidMonthlyOrder(app(), buyer)) };
}

const refund = (orderId: string, amountPaise?: number) =>
  requestRefund(app().core, processor(), { orderId, amountPaise, reason: 'asked by mail', actor: 'alice' });

/** Razorpay's refund.processed for the payment has reached the API (the sandbox sends it after answering). */
function webhookArrived(count = 1) {
  return pollUntil(
    'refund.processed',
    async () => (await WebhookEvent.count({ where: { eventType: 'refund.processed' } })) >= count,
  );
}

async function removes(): Promise<number> {
  return OutboxEvent.count({ where: { type: 'USER_PREMIUM_REMOVE' } });
}

async function daysLeft(buyer: User): Promise<number> {
  await buyer.reload();
  return Math.max(0, Math.round(((buyer.premiumExpiresAt?.getTime() ?? Date.now()) - Date.now()) / DAY_MS));
}

describe('requestRefund', () => {
  it('refunds the whole payment at Razorpay and takes premium once, under the operator, whichever says processed first', async () => {
    const { buyer, orderId, paymentId } = await boughtOrder();

    const result = await refund(orderId);
    await webhookArrived();

    expect(result).toMatchObject({
      paymentId,
      orderId,
      subscriptionId: null,
      amountPaise: 19_900,
      refundedTotalPaise: 19_900,
      paymentAmountPaise: 19_900,
      status: 'processed',
    });
    expect(app().sandbox.razorpay.payments(orderId)[0]).toMatchObject({ amount_refunded: 19_900 });
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'refunded',
    });
    const revokes = await PremiumGrant.findAll({ where: { kind: 'revoke' } });
    expect(revokes).toHaveLength(1);
    expect(revokes[0]).toMatchObject({
      actor: 'alice',
      source: 'manual',
      reason: `refund ${result.refundId}: asked by mail`,
    });
    expect(await removes()).toBe(1);
    expect(await daysLeft(buyer)).toBe(0);
  });

  it('refuses a second full refund without asking Razorpay', async () => {
    const { orderId } = await boughtOrder();
    await refund(orderId);
    await webhookArrived();
    app().sandbox.faults.set('razorpay.payments.refund', { status: 500 });

    await expect(refund(orderId)).rejects.toMatchObject({ code: 'ALREADY_REFUNDED' });
    expect(app().sandbox.razorpay.payments(orderId)[0]).toMatchObject({ amount_refunded: 19_900 });
  });

  it('takes the refunded share of the days, rounded up, and the rest with the last refund', async () => {
    const { buyer, orderId } = await boughtOrder();

    // A third of ₹199 is 9.9994 of 30 days: 10 days go.
    const first = await refund(orderId, 6_633);
    await webhookArrived();
    expect(first).toMatchObject({ status: 'processed', daysTaken: 10, refundedTotalPaise: 6_633 });
    expect(await daysLeft(buyer)).toBe(20);
    // The operator's in the ledger: the grant revoked and what is left of it given back.
    const ledger = await PremiumGrant.findAll({ order: [['id', 'ASC']] });
    expect(ledger.slice(1).map(({ kind, source, actor }) => ({ kind, source, actor }))).toEqual([
      { kind: 'revoke', source: 'manual', actor: 'alice' },
      { kind: 'grant', source: 'manual', actor: 'alice' },
    ]);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });

    const rest = await refund(orderId);
    await webhookArrived(2);
    expect(rest).toMatchObject({ amountPaise: 13_267, refundedTotalPaise: 19_900 });
    expect(await daysLeft(buyer)).toBe(0);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'refunded',
    });
    // The share, and then the rest: each webhook found its refund applied already.
    expect(await removes()).toBe(2);
  });

  it('retries a refund whose answer was lost without refunding twice', async () => {
    const { orderId, paymentId } = await boughtOrder();
    app().sandbox.faults.set('razorpay.payments.refund', { status: 502, body: '<html>bad gateway</html>' });
    await expect(refund(orderId)).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    // Razorpay refunded it all the same (the answer, not the refund, was lost).
    app().sandbox.faults.clear();
    const [row] = await app().core.sequelize.query<{ receipt: string }>(
      `SELECT receipt FROM payment_refunds WHERE payment_id = $1`,
      { bind: [paymentId], type: QueryTypes.SELECT },
    );
    await app().sandbox.razorpay.refund(paymentId, { receipt: row!.receipt });

    const result = await refund(orderId);

    expect(result).toMatchObject({ amountPaise: 19_900, status: 'processed' });
    expect(app().sandbox.razorpay.payments(orderId)[0]).toMatchObject({ amount_refunded: 19_900 });
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
  });

  it('speaks rupees in its refusals, as the operator typed the amount', async () => {
    const { orderId, paymentId } = await boughtOrder();
    const keyed = (amountPaise: number, idempotencyKey: string) =>
      requestRefund(app().core, processor(), {
        orderId,
        amountPaise,
        reason: 'asked by mail',
        actor: 'alice',
        idempotencyKey,
      });

    await expect(refund(orderId, 50_000)).rejects.toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      message: `only ₹199.00 of payment ${paymentId} is left to refund, not ₹500.00`,
    });
    await keyed(2_000, 'console-refund-rupees-1');
    await expect(keyed(3_000, 'console-refund-rupees-1')).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: `idempotency key console-refund-rupees-1 was used for a refund of ₹20.00 of ${paymentId}`,
    });
    app().sandbox.faults.set('razorpay.payments.refund', { status: 502, body: '<html>bad gateway</html>' });
    await expect(refund(orderId, 5_000)).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    app().sandbox.faults.clear();
    await expect(refund(orderId, 6_000)).rejects.toMatchObject({
      code: 'REFUND_UNCONFIRMED',
      message: expect.stringMatching(
        new RegExp(`^a refund of ₹50\\.00 of ${paymentId} is not confirmed yet; `),
      ),
    });
  });

  it('refuses what cannot be refunded, with a clear error', async () => {
    const { orderId } = await boughtOrder();
    await expect(refund(orderId, 20_000)).rejects.toMatchObject({ code: 'AMOUNT_TOO_LARGE' });
    await expect(refund('order_Unknown0000001')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND' });
    await expect(refund(orderId, 50)).rejects.toMatchObject({ code: 'INVALID_AMOUNT' });
    const buyer = await createUser();
    const unpaid = await orderAs(app(), buyer, MONTHLY_USER);
    await expect(refund(unpaid.id)).rejects.toMatchObject({ code: 'ORDER_NOT_PAID' });
  });
});

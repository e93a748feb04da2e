import { Order, OutboxEvent, PremiumGrant, type User } from '../../../src/core/models';
import { applyPayment } from '../../../src/core/payments/apply-payment';
import { applyDispute } from '../../../src/core/disputes/payment-dispute';
import type { DisputeStage } from '../../../src/core/disputes/types';
import { applyRefund } from '../../../src/core/refunds/payment-refund';
import { useTestCore } from '../../support/context';
import { grantPremium } from '../../../src/core/premium/grant';
import { createOrderRow, createUser, grantRequest } from '../../support/fixtures';

/**
 * The rules of the paid-and-grant path that issue 18 added, at the core: whatever makes it faster must
 * keep these answers.
 */
const getCore = useTestCore();
const db = () => getCore().sequelize;

const unpaidOrder = (buyer: User): Promise<Order> => createOrderRow(buyer.id);
const pay = (order: Order, paymentId: string) =>
  applyPayment(
    db(),
    { processorOrderId: order.processorOrderId, paymentId, paid: { amount: 19_900, currency: 'INR' } },
    { source: 'webhook', invoicing: getCore().config.invoicing },
  );
const refund = (order: Order, paymentId: string, refundedTotal = 19_900) =>
  applyRefund(
    db(),
    { refundId: `rfnd_${paymentId}`, processorOrderId: order.processorOrderId, paymentId, refundedTotal },
    { invoicing: getCore().config.invoicing },
  );
const dispute = (order: Order, paymentId: string, stage: DisputeStage) =>
  applyDispute(
    db(),
    { disputeId: 'disp_Rules00000001', paymentId, processorOrderId: order.processorOrderId, stage },
    { invoicing: getCore().config.invoicing },
  );
const written = async () => [await PremiumGrant.count(), await OutboxEvent.count()];

describe('paying an order', () => {
  it('pays nothing when its grant is refused: the order stays unpaid, no grant, no event', async () => {
    const order = await unpaidOrder(await createUser());
    // An operator once used the order's key for a grant of someone else's.
    const other = await createUser();
    await grantPremium(
      db(),
      grantRequest(other.providerId, { idempotencyKey: `order:${order.processorOrderId}` }),
    );

    await expect(pay(order, 'pay_Refused00000001')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });

    expect(await order.reload()).toMatchObject({ status: 'created', paymentId: null, paidAt: null });
    expect(await written()).toEqual([1, 1]);
  });

  it('marks the order paid with its grant, once, and answers a second payment of it from the first', async () => {
    const order = await unpaidOrder(await createUser());
    const first = await pay(order, 'pay_Once0000000001');
    const again = await pay(order, 'pay_Once0000000001');

    expect(await order.reload()).toMatchObject({ status: 'paid', paymentId: 'pay_Once0000000001' });
    expect(order.paidAt).toBeInstanceOf(Date);
    expect(again.change).toEqual({ ...first.change, replayed: true });
    expect(await written()).toEqual([1, 1]);
  });
});

describe('a full refund of an unpaid order', () => {
  it('ends the order refunded with that payment recorded, never granted; no payment pays it later', async () => {
    const order = await unpaidOrder(await createUser());
    expect(await refund(order, 'pay_Refunded0000001')).toEqual({ result: 'refunded' });
    expect(await refund(order, 'pay_Refunded0000001')).toMatchObject({ result: 'ignored' });
    expect(await order.reload()).toMatchObject({
      status: 'refunded',
      paymentId: 'pay_Refunded0000001',
      paidAt: expect.any(Date),
      refundedAt: expect.any(Date),
      nextCheckAt: null,
    });

    await expect(pay(order, 'pay_Refunded0000001')).rejects.toMatchObject({ code: 'ORDER_REFUNDED' });
    await expect(pay(order, 'pay_RealPayment0001')).rejects.toMatchObject({ code: 'ORDER_ALREADY_PAID' });
    expect(await written()).toEqual([0, 0]);
  });

  it('still bars a payment an older row lists as refunded before it was applied', async () => {
    const order = await unpaidOrder(await createUser());
    await order.update({ refundedPaymentIds: ['pay_Refunded0000001'] });
    await expect(pay(order, 'pay_Refunded0000001')).rejects.toMatchObject({ code: 'PAYMENT_REFUNDED' });
    expect(await written()).toEqual([0, 0]);
  });

  it('keeps premium on a partial refund of an unpaid order and bars nothing', async () => {
    const order = await unpaidOrder(await createUser());
    expect(await refund(order, 'pay_Partial00000001', 100)).toMatchObject({ result: 'ignored' });
    expect((await pay(order, 'pay_Partial00000001')).change!.replayed).toBe(false);
  });
});

describe('disputes at the core', () => {
  it('revokes once, grants again once when won, and a replayed payment then changes nothing', async () => {
    const buyer = await createUser();
    const order = await unpaidOrder(buyer);
    await pay(order, 'pay_Disputed0000001');

    expect(await dispute(order, 'pay_Disputed0000001', 'created')).toEqual({ result: 'applied' });
    expect(await dispute(order, 'pay_Disputed0000001', 'created')).toMatchObject({ result: 'ignored' });
    expect((await buyer.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await dispute(order, 'pay_Disputed0000001', 'won')).toEqual({ result: 'applied' });
    expect((await buyer.reload()).premiumExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    // The webhook of the original payment delivered late: the order's grant is replayed, not granted again.
    expect((await pay(order, 'pay_Disputed0000001')).change!.replayed).toBe(true);
    expect(await written()).toEqual([3, 3]);
    expect(await order.reload()).toMatchObject({ status: 'paid', disputeStatus: 'won' });
  });

  it('ignores a dispute of a payment that did not pay the order', async () => {
    const order = await unpaidOrder(await createUser());
    await pay(order, 'pay_ThePayment00001');
    expect(await dispute(order, 'pay_AnotherOne00001', 'created')).toMatchObject({ result: 'ignored' });
    expect(await written()).toEqual([1, 1]);
  });

  it('refuses to apply a payment charged back before it was applied, and applies it once the dispute is won', async () => {
    const order = await unpaidOrder(await createUser());
    expect(await dispute(order, 'pay_EarlyDispute001', 'created')).toEqual({ result: 'applied' });
    expect(await order.reload()).toMatchObject({ status: 'disputed', paymentId: 'pay_EarlyDispute001' });
    await expect(pay(order, 'pay_EarlyDispute001')).rejects.toMatchObject({ code: 'PAYMENT_DISPUTED' });
    expect(await written()).toEqual([0, 0]);

    await dispute(order, 'pay_EarlyDispute001', 'won');
    expect(await written()).toEqual([1, 1]);
    expect(await order.reload()).toMatchObject({ status: 'paid', disputeStatus: 'won' });
    expect((await pay(order, 'pay_EarlyDispute001')).change!.replayed).toBe(true);
  });
});

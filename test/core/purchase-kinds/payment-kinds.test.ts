import type { Order, User } from '../../../src/core/models';
import { applyPayment } from '../../../src/core/payments/apply-payment';
import { lockPayment } from '../../../src/core/payments/locked-payment';
import { kindOf } from '../../../src/core/purchase-kinds';
import { bundle } from '../../../src/core/purchase-kinds/bundle';
import { single } from '../../../src/core/purchase-kinds/single';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const db = () => getCore().sequelize;

const pay = (order: Order, paymentId: string) =>
  applyPayment(
    db(),
    {
      processorOrderId: order.processorOrderId,
      paymentId,
      paid: { amount: order.amountPaise, currency: 'INR' },
    },
    { source: 'webhook', invoicing: getCore().config.invoicing },
  );

/** What lockPayment finds for `lookup`, as its kind's rules and its source. */
const found = (lookup: { paymentId: string; processorOrderId?: string }) =>
  db().transaction(async (transaction) => {
    const payment = await lockPayment(db(), transaction, lookup, null);
    return payment && { source: payment.source, kind: kindOf(payment), name: payment.name };
  });

describe("a payment's purchase kind", () => {
  let buyer: User;
  beforeEach(async () => {
    buyer = await createUser();
  });

  it('is single for one target and bundle for several slots, as the payment recorded it', async () => {
    const one = await createOrderRow(buyer.id);
    const several = await createOrderRow(buyer.id, {
      category: 'SERVER',
      slots: 3,
      amountPaise: 49_900,
    });
    await pay(one, 'pay_KindSingle0001');
    await pay(several, 'pay_KindBundle0001');

    expect(await found({ paymentId: 'pay_KindSingle0001' })).toEqual({
      source: 'order',
      kind: single,
      name: `order ${one.processorOrderId}`,
    });
    expect(await found({ paymentId: 'pay_KindBundle0001' })).toEqual({
      source: 'order',
      kind: bundle,
      name: `order ${several.processorOrderId}`,
    });
  });

  it('finds a payment not recorded yet by the order its event names, and nothing that is not ours', async () => {
    const unpaid = await createOrderRow(buyer.id);
    const paymentId = `pay_Early${snowflake().slice(0, 8)}`;

    expect(await found({ paymentId, processorOrderId: unpaid.processorOrderId })).toEqual({
      source: 'order',
      kind: single,
      name: `order ${unpaid.processorOrderId}`,
    });
    expect(await found({ paymentId })).toBeNull();

    // Paid by another payment: the event's payment is none of that order's.
    await pay(unpaid, 'pay_KindOther0001');
    expect(await found({ paymentId, processorOrderId: unpaid.processorOrderId })).toBeNull();
  });
});

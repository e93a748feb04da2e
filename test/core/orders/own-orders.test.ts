import { listOwnOrders } from '../../../src/core/orders/own-orders';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser } from '../../support/fixtures';

const getCore = useTestCore();
const getSequelize = () => getCore().sequelize;

describe('the buyer’s own orders', () => {
  it('lists the caller’s orders alone, newest first, in rupees, up to the limit', async () => {
    const buyer = await createUser();
    const other = await createUser();
    const older = await createOrderRow(buyer.id, { createdAt: new Date(Date.now() - 60_000) });
    const newer = await createOrderRow(buyer.id, { amountPaise: 49_900 });
    await createOrderRow(other.id);

    const orders = await listOwnOrders(getSequelize(), buyer.providerId);
    expect(orders.map((order) => order.orderId)).toEqual([newer.processorOrderId, older.processorOrderId]);
    expect(orders[0]).toMatchObject({
      status: 'created',
      amount: 499,
      planType: 'Monthly',
      failedAttempt: null,
    });
    expect(await listOwnOrders(getSequelize(), buyer.providerId, 1)).toHaveLength(1);
  });
});

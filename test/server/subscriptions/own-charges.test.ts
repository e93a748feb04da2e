import { createUser } from '../../support/fixtures';
import { manageGuild } from '../../support/payments-app';
import { buyMonthFor, get } from '../../support/self-service';
import { chargedMonthlySubscription, useSubscriptionsApp } from '../../support/subscriptions-app';
import { pollUntil } from '../../support/wait';

const getApp = useSubscriptionsApp();

describe('GET /api/payment/orders with subscription charges', () => {
  it("lists the caller's subscription charges beside the orders, which stay as they were", async () => {
    const app = getApp();
    const buyer = await createUser();
    const { subscriptionId, paymentId } = await chargedMonthlySubscription(app, buyer);
    await app.sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
    const { orderId } = await buyMonthFor(app, buyer, await manageGuild(buyer));
    await chargedMonthlySubscription(app, await createUser());

    const { orders, subscriptionCharges } = await pollUntil('the second charge', async () => {
      const body = (await get(app, '/api/payment/orders', buyer)).json();
      return body.subscriptionCharges?.length === 2 && body;
    });

    // The one-off order alone, with the fields it always had: a charge is not an order.
    expect(orders.map((order: { orderId: string }) => order.orderId)).toEqual([orderId]);
    const charge = {
      subscriptionId,
      status: 'charged',
      planType: 'Monthly',
      category: 'USER',
      guildId: null,
      amount: 199,
      currency: 'INR',
      cycleStart: expect.any(String),
      cycleEnd: expect.any(String),
      chargedAt: expect.any(String),
    };
    expect(subscriptionCharges).toEqual([
      { ...charge, paymentId: expect.not.stringMatching(paymentId) },
      { ...charge, paymentId },
    ]);
    const limited = (await get(app, '/api/payment/orders?limit=1', buyer)).json();
    expect(limited.subscriptionCharges).toHaveLength(1);
  });

  it('answers an empty list to a buyer without subscriptions', async () => {
    const reply = await get(getApp(), '/api/payment/orders', await createUser());
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ orders: [], subscriptionCharges: [] });
  });
});

import { PremiumGrant, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { requestRefund } from '../../../src/core/refunds';
import { openDisputes, revenueReport } from '../../../src/core/reports';
import { createUser, DAY_MS } from '../../support/fixtures';
import { chargedMonthlySubscription, chargesOf, useSubscriptionsApp } from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();

const chargedSubscription = (user: User) => chargedMonthlySubscription(getApp(), user);

describe('a subscription charge from our side', () => {
  it('is refunded by its payment id like an order: the cycle goes, once, under the operator', async () => {
    const user = await createUser();
    const { subscriptionId, paymentId } = await chargedSubscription(user);
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);

    const result = await requestRefund(getApp().core, razorpayClientFor(getApp().core.config), {
      paymentId,
      reason: 'did not want it to renew',
      actor: 'alice',
    });

    expect(result).toMatchObject({ subscriptionId, orderId: null, amountPaise: 19_900, status: 'processed' });
    expect((await chargesOf(getApp(), subscriptionId))[0]).toMatchObject({ status: 'refunded' });
    // The cycle's 30 days are gone (whether the grace floor after it goes too is the refund rules' business).
    const graceMs = getApp().core.config.subscriptionGraceHours * 3_600_000;
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + graceMs);
    expect(await PremiumGrant.findAll({ where: { kind: 'revoke' } })).toEqual([
      expect.objectContaining({ actor: 'alice', source: 'subscription' }),
    ]);
    const today = await revenueReport(getApp().core, { by: 'month' });
    expect(today.totals.byKind.subscription).toEqual({
      gross: 199,
      refunded: 199,
      disputed: 0,
      net: 0,
      payments: 1,
    });
    // The buyer is told, as for an order's refund, naming the subscription.
    const [messages] = await getApp().core.sequelize.query(
      `SELECT payload->>'reference' AS reference, (payload->>'amountPaise')::int AS paise FROM jobs
       WHERE kind = 'buyer_message' AND payload->>'kind' = 'refund'`,
    );
    expect(messages).toEqual([{ reference: subscriptionId, paise: 19_900 }]);
  });

  it("keeps a dispute's respond_by and amount from its webhook for the open disputes", async () => {
    const user = await createUser();
    const { subscriptionId, paymentId } = await chargedSubscription(user);

    const dispute = await getApp().sandbox.razorpay.dispute(paymentId, 'created', { webhooks: true });

    expect(await openDisputes(getApp().core)).toEqual([
      expect.objectContaining({
        disputeId: dispute.id,
        subscriptionId,
        paymentId,
        providerId: user.providerId,
        amount: 199,
        respondBy: new Date(dispute.respond_by * 1000).toISOString(),
      }),
    ]);
  });
});

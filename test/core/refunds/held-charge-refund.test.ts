import type { User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { requestRefund } from '../../../src/core/refunds';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { createUser, DAY_MS } from '../../support/fixtures';
import { chargedMonthlySubscription, useSubscriptionsApp } from '../../support/subscriptions-app';

// One automatic revoke in the hour reaches the limit: the next one is held for an operator.
const getApp = useSubscriptionsApp({ MAX_REVOKES_PER_HOUR: '1' });

const refund = (paymentId: string, amountPaise?: number) =>
  requestRefund(getApp().core, razorpayClientFor(getApp().core.config), {
    paymentId,
    amountPaise,
    reason: 'asked by the buyer',
    actor: 'alice',
  });

const expiryOf = async (user: User) => (await user.reload()).premiumExpiresAt!.getTime();

describe("a subscription charge's partial refund held by the revocation guard", () => {
  it('takes that share of the cycle when an operator releases it, not the whole cycle', async () => {
    const first = await createUser();
    await refund((await chargedMonthlySubscription(getApp(), first)).paymentId);

    const buyer = await createUser();
    const { paymentId } = await chargedMonthlySubscription(getApp(), buyer);
    const paidUntil = await expiryOf(buyer);
    expect(await refund(paymentId, 5_000)).toMatchObject({ status: 'processed', daysTaken: 0 });
    expect(await expiryOf(buyer)).toBe(paidUntil);
    const [held] = await listHeldRevokes(getApp().core.sequelize);
    expect(held!.request).toMatchObject({
      source: 'subscription',
      idempotencyKey: expect.stringMatching(/^refund-share:/),
    });

    // 5,000 of 19,900 paise is 7.54 of the cycle's 30 days: 8 go.
    const [released] = await releaseHeldRevokes(getApp().core.sequelize, [held!.id], 'operator');
    expect(released).toMatchObject({
      result: 'revoked',
      detail: expect.stringMatching(/: 8 days taken, \d+ given back/),
    });
    expect(Math.abs(paidUntil - 8 * DAY_MS - (await expiryOf(buyer)))).toBeLessThan(60_000);
  });
});

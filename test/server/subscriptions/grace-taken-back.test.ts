import { UserPremium } from '../../../src/core/models';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser, DAY_MS } from '../../support/fixtures';
import { chargesOf, HOUR_MS, ledger, subscribe, useSubscriptionsApp } from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();
const GRACE_MS = 72 * HOUR_MS;

/** A Monthly USER subscription whose first charge set the record to its cycle's end plus the grace. */
async function chargedOnce() {
  const app = getApp();
  const user = await createUser();
  const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
  const [charge] = await chargesOf(app, subscriptionId);
  const record = await UserPremium.findOne({ where: { userId: user.id } });
  expect(record!.expiresAt.getTime()).toBe(charge!.cycle_end!.getTime() + GRACE_MS);
  return { user, subscriptionId, charge: charge! };
}

async function expectWholeContributionTaken(user: { id: number }) {
  const record = await UserPremium.findOne({ where: { userId: user.id } });
  expect(record!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
  const [grant, revoke] = await ledger(getApp());
  // The ledger says what was taken: the cycle and the grace floor, 33 days, not the plan's 30.
  expect(revoke).toMatchObject({ kind: 'revoke', revokes_grant_id: grant!.id, days: -33 });
  expect(revoke!.expires_before!.getTime() - revoke!.expires_after.getTime()).toBeGreaterThan(32 * DAY_MS);
}

describe('a refund or a lost chargeback of a subscription charge takes its whole contribution', () => {
  it('a full refund leaves no grace behind', async () => {
    const { user, subscriptionId, charge } = await chargedOnce();

    await getApp().sandbox.razorpay.refund(charge.payment_id, { webhooks: true });

    expect((await chargesOf(getApp(), subscriptionId))[0]).toMatchObject({ status: 'refunded' });
    await expectWholeContributionTaken(user);
  });

  it.each<[DisputeStage[]]>([[['lost']], [['created', 'lost']]])(
    'a lost dispute (%j) leaves no grace behind',
    async (stages) => {
      const { user, charge } = await chargedOnce();
      const disputeId = `disp_Grace${stages.length}${Date.now() % 100000}`;

      for (const stage of stages) {
        await getApp().sandbox.razorpay.dispute(charge.payment_id, stage, { webhooks: true, disputeId });
        expect(getApp().sandbox.razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
      }

      await expectWholeContributionTaken(user);
    },
  );
});

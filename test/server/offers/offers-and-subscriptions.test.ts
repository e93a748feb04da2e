import { addOffer } from '../../../src/core/offers';
import { Subscription } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import { createSubscriptionAs, useSubscriptionsApp } from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();

describe('an offer code on a subscription', () => {
  it('is refused with 400 OFFER_NOT_FOR_SUBSCRIPTIONS, never ignored, and nothing is created', async () => {
    const { core } = getApp();
    await addOffer(core.sequelize, { code: 'DIWALI20', percentOff: 20, actor: 'test' });
    const user = await createUser();
    for (const offerCode of ['DIWALI20', 'NOSUCHCODE', '']) {
      const reply = await createSubscriptionAs(getApp(), user, {
        planType: 'Monthly',
        category: 'USER',
        offerCode,
      });
      expect([reply.statusCode, reply.json().error.code]).toEqual([400, 'OFFER_NOT_FOR_SUBSCRIPTIONS']);
      expect(reply.json().error.message).toMatch(/one-time purchases/);
    }
    expect(await Subscription.count()).toBe(0);

    // Without the code, the same buyer subscribes at the plan's price.
    const plain = await createSubscriptionAs(getApp(), user, { planType: 'Monthly', category: 'USER' });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().firstCharge.amount).toBe(199);
  });
});

import { OutboxEvent, UserPremium } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, grantRequest } from '../../support/fixtures';

const getCore = useTestCore();

describe('grantPremium with atLeastUntil (subscription charges)', () => {
  async function userWithPremiumUntil(expiresAt: Date) {
    const user = await createUser({ premiumExpiresAt: expiresAt });
    await UserPremium.create({ userId: user.id, expiresAt, version: 1 });
    return user;
  }

  it('runs the record to the floor when the extension ends earlier', async () => {
    const user = await userWithPremiumUntil(new Date(Date.now() + DAY_MS));
    const floor = new Date(Date.now() + 40 * DAY_MS);
    const change = await grantPremium(
      getCore().sequelize,
      grantRequest(user.providerId, {
        atLeastUntil: floor,
        subscriptionId: 'sub_Test',
        source: 'subscription',
      }),
    );
    expect(change.expiresAt).toEqual(floor);
    expect((await user.reload()).premiumExpiresAt).toEqual(floor);
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({
      expiresAt: floor.toISOString(),
      source: 'subscription',
      subscriptionId: 'sub_Test',
      durationDays: 30,
    });
  });

  it('extends by the plan when that ends later than the floor', async () => {
    const expiry = new Date(Date.now() + 20 * DAY_MS);
    const user = await userWithPremiumUntil(expiry);
    const change = await grantPremium(
      getCore().sequelize,
      grantRequest(user.providerId, { atLeastUntil: new Date(Date.now() + 31 * DAY_MS) }),
    );
    expect(change.expiresAt).toEqual(new Date(expiry.getTime() + 30 * DAY_MS));
  });

  it('is an ordinary grant without a floor, and an event without a subscription id', async () => {
    const expiry = new Date(Date.now() + 5 * DAY_MS);
    const user = await userWithPremiumUntil(expiry);
    const change = await grantPremium(
      getCore().sequelize,
      grantRequest(user.providerId, { atLeastUntil: null }),
    );
    expect(change.expiresAt).toEqual(new Date(expiry.getTime() + 30 * DAY_MS));
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).not.toHaveProperty('subscriptionId');
  });
});

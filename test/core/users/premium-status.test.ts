import { createCore, type Core } from '../../../src/core';
import { setTierFeatures } from '../../../src/core/catalog';
import { getPremiumStatus } from '../../../src/core/users';
import { resetDatabase, testConfig } from '../../support/context';
import { createUser, DAY_MS } from '../../support/fixtures';

describe('the premium status read', () => {
  // One connection, so that the statement planted below is on the connection the read gets.
  let core: Core;
  beforeAll(() => {
    core = createCore(testConfig(), { poolMax: 1 });
  });
  beforeEach(() => resetDatabase(core));
  afterAll(() => core.close());

  it('answers from the row, and USER_NOT_FOUND for an unknown user', async () => {
    const expiresAt = new Date(Date.now() + 3 * DAY_MS);
    const premium = await createUser({ premiumExpiresAt: expiresAt });
    const lapsed = await createUser({ premiumExpiresAt: new Date(Date.now() - DAY_MS) });

    // Written without tiers (as before migration 027): the days are the default tier's.
    expect(await getPremiumStatus(core.sequelize, premium.providerId)).toEqual({
      isPremium: true,
      premiumExpiresAt: expiresAt.toISOString(),
      tier: 'premium',
      features: {},
      tiers: [{ tier: 'premium', startsAt: expect.any(String), expiresAt: expiresAt.toISOString() }],
    });
    expect(await getPremiumStatus(core.sequelize, lapsed.providerId)).toMatchObject({ isPremium: false });
    await expect(getPremiumStatus(core.sequelize, '42')).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it("shows a tier's features changed in this process at once, though it keeps the catalog", async () => {
    const expiresAt = new Date(Date.now() + 3 * DAY_MS);
    const user = await createUser({ premiumExpiresAt: expiresAt });
    expect(await getPremiumStatus(core.sequelize, user.providerId)).toMatchObject({ features: {} });

    await setTierFeatures(core.sequelize, 'premium', { music: true });
    expect(await getPremiumStatus(core.sequelize, user.providerId)).toMatchObject({
      tier: 'premium',
      features: { music: true },
    });
  });

  it('still answers when the server connection lost the prepared statement, as behind PgBouncer', async () => {
    const user = await createUser({ premiumExpiresAt: null });
    const unpremium = { isPremium: false, premiumExpiresAt: null, tier: null, features: {}, tiers: [] };
    expect(await getPremiumStatus(core.sequelize, user.providerId)).toEqual(unpremium);
    // What a pooler without prepared-statement support causes: the next statement reaches a server
    // connection that does not know the statement this client prepared (26000).
    await core.sequelize.query('DEALLOCATE ALL');

    for (let i = 0; i < 3; i++) {
      expect(await getPremiumStatus(core.sequelize, user.providerId)).toEqual(unpremium);
    }
  });
});

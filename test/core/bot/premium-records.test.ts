import { findGuildPremium, findUserPremium } from '../../../src/core/bot/premium-records';
import { grantPremium } from '../../../src/core/premium/grant';
import { useTestCore } from '../../support/context';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();

describe('the bot’s premium lookups', () => {
  it('answer a granted user and guild with their record’s expiry, tier and version', async () => {
    const user = await createUser();
    const guildId = snowflake();
    const own = await grantPremium(getCore().sequelize, grantRequest(user.providerId));
    const guild = await grantPremium(
      getCore().sequelize,
      grantRequest(user.providerId, { category: 'SERVER', guildId }),
    );

    expect(await findUserPremium(getCore().sequelize, user.providerId)).toEqual({
      providerId: user.providerId,
      isPremium: true,
      premiumExpiresAt: own.expiresAt.toISOString(),
      tier: 'premium',
      features: expect.any(Object),
      version: 1,
    });
    expect(await findGuildPremium(getCore().sequelize, guildId)).toMatchObject({
      guildId,
      isPremium: true,
      premiumExpiresAt: guild.expiresAt.toISOString(),
      slots: 1,
      version: 1,
    });
  });

  it('answer an unknown user or guild as not premium, at version 0', async () => {
    expect(await findUserPremium(getCore().sequelize, '42')).toMatchObject({ isPremium: false, version: 0 });
    expect(await findGuildPremium(getCore().sequelize, '43')).toMatchObject({
      isPremium: false,
      premiumExpiresAt: null,
      slots: 0,
      version: 0,
    });
  });
});

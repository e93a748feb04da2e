import { ServerPremium, UserGuild } from '../../../src/core/models';
import { seedPlan } from '../../support/fixtures';
import { grantPremium } from '../../../src/core/premium/grant';
import { issueSessionToken } from '../../../src/core/session';
import { useTestApp } from '../../support/app';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';

const getApp = useTestApp();

function me(authorization?: string) {
  return getApp().app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: authorization ? { authorization } : {},
  });
}
function bearerFor(providerId: string): string {
  const claims = { providerId, username: 'fan', avatar: null };
  return `Bearer ${issueSessionToken(getApp().core.config.jwtSecret, claims)}`;
}

describe('GET /api/auth/me', () => {
  it('shows the profile, premium, own record expiry and each manageable guild with its server premium', async () => {
    const user = await createUser();
    const [alpha, beta, gamma] = [snowflake(), snowflake(), snowflake()];
    await UserGuild.bulkCreate([
      { userId: user.id, guildId: alpha, name: 'Alpha', icon: 'a_5ee', owner: true, permissions: '0' },
      { userId: user.id, guildId: beta, name: 'Beta', icon: null, owner: false, permissions: '32' },
      { userId: user.id, guildId: gamma, name: 'Gamma', icon: 'f00', owner: false, permissions: '8' },
    ]);
    const own = await grantPremium(getApp().core.sequelize, grantRequest(user.providerId));
    const server = await grantPremium(
      getApp().core.sequelize,
      grantRequest(user.providerId, { category: 'SERVER', guildId: alpha, plan: seedPlan('Yearly') }),
    );
    const lapsed = new Date(Date.now() - DAY_MS);
    await ServerPremium.create({ guildId: gamma, buyerUserId: user.id, expiresAt: lapsed });

    const reply = await me(bearerFor(user.providerId));

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      providerId: user.providerId,
      username: 'fan',
      globalName: null,
      avatar: user.avatar,
      isPremium: true,
      premiumExpiresAt: server.expiresAt.toISOString(),
      userPremiumExpiresAt: own.expiresAt.toISOString(),
      // The own record's days alone: the server's year is not in them.
      userPremiumTiers: [
        { tier: 'premium', startsAt: expect.any(String), expiresAt: own.expiresAt.toISOString() },
      ],
      guilds: [
        {
          id: alpha,
          name: 'Alpha',
          icon: `https://cdn.discordapp.com/icons/${alpha}/a_5ee.gif`,
          owner: true,
          isPremium: true,
          premiumExpiresAt: server.expiresAt.toISOString(),
        },
        { id: beta, name: 'Beta', icon: null, owner: false, isPremium: false, premiumExpiresAt: null },
        {
          id: gamma,
          name: 'Gamma',
          icon: `https://cdn.discordapp.com/icons/${gamma}/f00.png`,
          owner: false,
          isPremium: false,
          premiumExpiresAt: lapsed.toISOString(),
        },
      ],
    });
  });

  it('shows a user without premium or guilds as such', async () => {
    const user = await createUser();
    const reply = await me(bearerFor(user.providerId));
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({
      isPremium: false,
      premiumExpiresAt: null,
      userPremiumExpiresAt: null,
      userPremiumTiers: [],
      guilds: [],
    });
  });

  it('answers 401 without a token and 404 when the token’s user no longer exists', async () => {
    const missing = await me();
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({
      error: { code: 'AUTHENTICATION_REQUIRED', message: expect.any(String) },
    });

    const gone = await me(bearerFor(snowflake()));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: { code: 'USER_NOT_FOUND', message: expect.any(String) } });
  });
});

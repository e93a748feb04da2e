import { randomBytes, randomInt } from 'node:crypto';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { useTestApp } from '../../support/app';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = useTestApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '1000' });
const bearer = { authorization: `Bearer ${TOKEN}` };

function get(url: string, headers: Record<string, string> = bearer) {
  return getApp().app.inject({ method: 'GET', url, headers });
}

async function grantGuild(guildId = snowflake()) {
  const buyer = await createUser();
  const change = await grantPremium(
    getApp().core.sequelize,
    grantRequest(buyer.providerId, { category: 'SERVER', guildId }),
  );
  return { guildId, buyer, change };
}

function endGuild(guildId: string) {
  return revokePremium(getApp().core.sequelize, {
    target: { category: 'SERVER', guildId },
    source: 'manual',
    actor: 'test',
    reason: 'test',
    idempotencyKey: `end:${guildId}`,
  });
}

const ROUTES = [
  `/api/bot/guilds/${snowflake()}/premium`,
  `/api/bot/users/${snowflake()}/premium`,
  '/api/bot/premium?category=SERVER',
  '/api/bot/premium/stream',
];

describe('the bot API: token', () => {
  it.each(ROUTES)('answers %s 401 without the token and with a wrong one, alike', async (url) => {
    const answers = [
      await get(url, {}),
      await get(url, { authorization: `Bearer ${TOKEN}x` }),
      await get(url, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }),
      await get(url, { authorization: TOKEN }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({
        error: { code: 'INVALID_BOT_TOKEN', message: 'send Authorization: Bearer <the bot API token>' },
      });
    }
  });

  it('checks the token before the parameters', async () => {
    expect((await get('/api/bot/premium?category=NOPE', {})).statusCode).toBe(401);
    expect((await get('/api/bot/premium?category=NOPE')).statusCode).toBe(400);
  });

  it('documents the four routes under the tag "bot", with the bot token scheme', async () => {
    const document = (await get('/docs/json', {})).json();
    for (const path of [
      '/api/bot/guilds/{guildId}/premium',
      '/api/bot/users/{providerId}/premium',
      '/api/bot/premium',
      '/api/bot/premium/stream',
    ]) {
      expect(document.paths[path].get).toMatchObject({ tags: ['bot'], security: [{ botToken: [] }] });
    }
    expect(document.components.securitySchemes.botToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('the bot API: one guild, one user', () => {
  it("answers a guild's record with its version, and an unknown guild as version 0", async () => {
    const { guildId, change } = await grantGuild();
    expect((await get(`/api/bot/guilds/${guildId}/premium`)).json()).toEqual({
      guildId,
      isPremium: true,
      premiumExpiresAt: change.expiresAt.toISOString(),
      tier: 'premium',
      features: {},
      slots: 1,
      version: 1,
    });

    const ended = await endGuild(guildId);
    expect((await get(`/api/bot/guilds/${guildId}/premium`)).json()).toEqual({
      guildId,
      isPremium: false,
      premiumExpiresAt: ended.expiresAt.toISOString(),
      tier: null,
      features: {},
      slots: 1,
      version: 2,
    });

    const unknown = snowflake();
    const answer = await get(`/api/bot/guilds/${unknown}/premium`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      guildId: unknown,
      isPremium: false,
      premiumExpiresAt: null,
      tier: null,
      features: {},
      slots: 0,
      version: 0,
    });
  });

  it("answers a user's own record; a buyer of guild premium only, or an unknown user, is version 0", async () => {
    const fan = await createUser();
    await grantPremium(getApp().core.sequelize, grantRequest(fan.providerId));
    const second = await grantPremium(getApp().core.sequelize, grantRequest(fan.providerId));
    expect((await get(`/api/bot/users/${fan.providerId}/premium`)).json()).toEqual({
      providerId: fan.providerId,
      isPremium: true,
      premiumExpiresAt: second.expiresAt.toISOString(),
      tier: 'premium',
      features: {},
      version: 2,
    });

    const { buyer } = await grantGuild();
    for (const providerId of [buyer.providerId, snowflake()]) {
      expect((await get(`/api/bot/users/${providerId}/premium`)).json()).toEqual({
        providerId,
        isPremium: false,
        premiumExpiresAt: null,
        tier: null,
        features: {},
        version: 0,
      });
    }
  });

  it('refuses ids that are not snowflakes with 400', async () => {
    for (const url of ['/api/bot/guilds/abc/premium', '/api/bot/users/12a/premium']) {
      const answer = await get(url);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('the bot API: the snapshot', () => {
  async function pages(category: string, limit: number) {
    const all: { items: Record<string, unknown>[]; nextCursor: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const answer = await get(
        `/api/bot/premium?category=${category}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(answer.statusCode).toBe(200);
      all.push(answer.json());
      cursor = all[all.length - 1]!.nextCursor;
    } while (cursor !== null);
    return all;
  }

  it('lists every active record of a category once, in keyset pages, each with its version', async () => {
    const guilds = [];
    for (let i = 0; i < 5; i++) guilds.push(await grantGuild());
    await grantPremium(
      getApp().core.sequelize,
      grantRequest(guilds[1]!.buyer.providerId, {
        category: 'SERVER',
        guildId: guilds[1]!.guildId,
      }),
    );
    await endGuild(guilds[3]!.guildId);
    const fan = await createUser();
    await grantPremium(getApp().core.sequelize, grantRequest(fan.providerId));

    const serverPages = await pages('SERVER', 2);
    expect(serverPages.map((page) => page.items.length)).toEqual([2, 2]);
    const listed = serverPages.flatMap((page) => page.items);
    expect(listed.map((item) => [item.guildId, item.version, item.isPremium])).toEqual([
      [guilds[0]!.guildId, 1, true],
      [guilds[1]!.guildId, 2, true],
      [guilds[2]!.guildId, 1, true],
      [guilds[4]!.guildId, 1, true],
    ]);
    expect(listed[0]).toEqual({
      guildId: guilds[0]!.guildId,
      isPremium: true,
      premiumExpiresAt: guilds[0]!.change.expiresAt.toISOString(),
      tier: 'premium',
      features: {},
      slots: 1,
      version: 1,
    });

    const userPages = await pages('USER', 1000);
    expect(userPages).toEqual([
      {
        items: [
          {
            providerId: fan.providerId,
            isPremium: true,
            premiumExpiresAt: expect.any(String),
            tier: 'premium',
            features: {},
            version: 1,
          },
        ],
        nextCursor: null,
      },
    ]);
  });

  it('answers a malformed cursor, or one of the other category, with 400 INVALID_CURSOR', async () => {
    await grantGuild();
    await grantGuild();
    const { nextCursor } = (await get('/api/bot/premium?category=SERVER&limit=1')).json();
    expect(nextCursor).toEqual(expect.any(String));
    const bad = [
      `/api/bot/premium?category=USER&cursor=${nextCursor}`,
      '/api/bot/premium?category=SERVER&cursor=not-a-cursor',
      `/api/bot/premium?category=SERVER&cursor=${Buffer.from('SERVER:-1').toString('base64url')}`,
    ];
    for (const url of bad) {
      const answer = await get(url);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.code).toBe('INVALID_CURSOR');
    }
  });

  it.each([
    'category=ALL',
    '',
    'category=SERVER&limit=0',
    'category=SERVER&limit=1001',
    'category=SERVER&limit=x',
  ])('answers ?%s with 400 VALIDATION_FAILED', async (query) => {
    const answer = await get(`/api/bot/premium?${query}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('the bot API without BOT_API_TOKEN', () => {
  const getBare = useTestApp();
  it.each(ROUTES)('answers %s 404, with or without a token', async (url) => {
    for (const headers of [{}, bearer]) {
      const answer = await getBare().app.inject({ method: 'GET', url, headers });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().error.code).toBe('NOT_FOUND');
    }
  });
});

describe('the bot API rate limit (BOT_RATE_LIMIT_PER_MINUTE=3)', () => {
  // A token of its own: the counters live in Redis, shared with other runs.
  const token = randomBytes(24).toString('hex');
  const getLimited = useTestApp({ BOT_API_TOKEN: token, BOT_RATE_LIMIT_PER_MINUTE: '3' });
  const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;
  const call = async (authorization: string, remoteAddress: string) =>
    (
      await getLimited().app.inject({
        method: 'GET',
        url: `/api/bot/guilds/${snowflake()}/premium`,
        headers: { authorization },
        remoteAddress,
      })
    ).statusCode;

  it('counts the token whatever the IP, and wrong tokens per IP', async () => {
    const good = `Bearer ${token}`;
    expect([await call(good, ip()), await call(good, ip()), await call(good, ip())]).toEqual([200, 200, 200]);
    expect(await call(good, ip())).toBe(429);

    const guesser = ip();
    const wrong = `Bearer ${randomBytes(24).toString('hex')}`;
    expect([await call(wrong, guesser), await call(wrong, guesser), await call(wrong, guesser)]).toEqual([
      401, 401, 401,
    ]);
    expect(await call(wrong, guesser)).toBe(429);
    expect(await call(wrong, ip())).toBe(401);
  });
});

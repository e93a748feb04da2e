import { randomBytes } from 'node:crypto';
import { bundleRequests, eventsOf, guildExpiry, MONTHLY_SERVER, near, TRIO } from '../../support/bundles';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';
import { manageGuild, usePaymentsApp } from '../../support/payments-app';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });
const { addTrio, buy, slotsOf, bind, unbind, expectBotAgrees } = bundleRequests(getApp, TOKEN);

beforeEach(addTrio);

describe('bundles: buying and binding', () => {
  it('buys a bundle for no guild, then five concurrent binds on three slots: three bound, two NO_FREE_SLOT', async () => {
    const buyer = await createUser();
    const guilds = await Promise.all([1, 2, 3, 4, 5].map(() => manageGuild(buyer)));
    await buy(buyer, TRIO);
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect(bundle).toMatchObject({ slots: 3, guilds: [] });
    expect(near(new Date(bundle!.endsAt).getTime(), Date.now() + 30 * DAY_MS)).toBe(true);

    const replies = await Promise.all(guilds.map((guildId) => bind(buyer, bundle!.bundleId, guildId)));
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409]);
    for (const reply of replies.filter((each) => each.statusCode === 409)) {
      expect(reply.json().error.code).toBe('NO_FREE_SLOT');
    }
    const bound = (await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => guild.guildId);
    expect(bound).toHaveLength(3);
    for (const guildId of guilds) {
      if (bound.includes(guildId)) {
        expect(near(await guildExpiry(guildId), Date.now() + 30 * DAY_MS)).toBe(true);
        expect(await eventsOf(guildId)).toEqual([['SERVER_PREMIUM_ADD', 'bundle']]);
        await expectBotAgrees(guildId);
      } else {
        expect(await guildExpiry(guildId)).toBeNull();
      }
    }
  });

  it('binds the first slot to the guild the order named; refuses a guild bound already or not managed', async () => {
    const buyer = await createUser();
    const first = await manageGuild(buyer);
    await buy(buyer, { ...TRIO, guildId: first });
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect(bundle!.guilds.map((guild) => guild.guildId)).toEqual([first]);
    expect(near(await guildExpiry(first), Date.now() + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(first);

    const again = await bind(buyer, bundle!.bundleId, first);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'ALREADY_BOUND']);
    const stranger = await bind(buyer, bundle!.bundleId, snowflake());
    expect([stranger.statusCode, stranger.json().error.code]).toEqual([403, 'NOT_GUILD_MANAGER']);
    const other = await createUser();
    const notTheirs = await bind(other, bundle!.bundleId, await manageGuild(other));
    expect(notTheirs.statusCode).toBe(404);
  });

  it('bound, unbound and bound again: the guild ends with the bundle’s remaining days once, its own days kept', async () => {
    const buyer = await createUser();
    const owner = await createUser();
    const guildId = await manageGuild(buyer);
    await manageGuild(owner, guildId);
    await buy(owner, { ...MONTHLY_SERVER, guildId });
    const own = (await guildExpiry(guildId))!;
    await buy(buyer, TRIO);
    const [bundle] = (await slotsOf(buyer)).bundles;

    expect((await bind(buyer, bundle!.bundleId, guildId)).statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(guildId);

    const unbound = await unbind(buyer, bundle!.bundleId, guildId);
    expect(unbound.statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own)).toBe(true);
    expect((await slotsOf(buyer)).bundles[0]!.guilds).toEqual([]);
    await expectBotAgrees(guildId);

    expect((await bind(buyer, bundle!.bundleId, guildId)).statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(guildId);
    expect(await eventsOf(guildId)).toEqual([
      ['SERVER_PREMIUM_ADD', 'checkout'],
      ['SERVER_PREMIUM_ADD', 'bundle'],
      ['SERVER_PREMIUM_REMOVE', 'bundle'],
      ['SERVER_PREMIUM_ADD', 'bundle'],
    ]);
    const missing = await unbind(buyer, bundle!.bundleId, snowflake());
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'NOT_BOUND']);
  });
});

import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { guildExpiry, guildsWithPremium, near, TRIO, useBundlesApp } from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliverRefund, manageGuild } from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: a bundle's second guild's revoke is held.
const { getApp, buy, slotsOf, newestBundleOf, bind, unbind, transfer, expectBotAgrees } = useBundlesApp({
  MAX_REVOKES_PER_HOUR: '1',
});

const release = () => releaseHeldRevokes(getApp().core.sequelize, 'all', 'operator');

/** A Trio bound to two guilds, and a third guild and a fourth the buyer manages. */
async function boundTwice() {
  const buyer = await createUser();
  const guilds = [
    await manageGuild(buyer),
    await manageGuild(buyer),
    await manageGuild(buyer),
    await manageGuild(buyer),
  ];
  const orderId = await buy(buyer, { ...TRIO, guildId: guilds[0] });
  const bundleId = await newestBundleOf(buyer);
  expect((await bind(buyer, bundleId, guilds[1]!)).statusCode).toBe(200);
  return { buyer, orderId, bundleId, guilds: guilds as [string, string, string, string] };
}

describe('bundles and transfers: a revoke the revocation guard holds', () => {
  it('a held guild’s days cannot be moved away; released, they are taken from it', async () => {
    const { buyer, orderId, guilds } = await boundTwice();
    const [first, held, elsewhere] = guilds;
    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    expect((await slotsOf(buyer)).bundles[0]!.guilds).toMatchObject([{ guildId: held, state: 'held' }]);

    const moved = await transfer(buyer, held, elsewhere);
    expect([moved.statusCode, moved.json().error?.code]).toEqual([409, 'BUNDLE_DAYS']);
    expect(await guildsWithPremium(guilds)).toEqual([held]);

    expect((await release()).map((released) => released.result)).toEqual(['revoked']);
    expect(await guildsWithPremium(guilds)).toEqual([]);
    for (const guildId of [first, held, elsewhere]) await expectBotAgrees(guildId);
  });

  it('a partial refund held, a refused transfer, the slot moved by unbind and bind: one guild a slot', async () => {
    const { buyer, orderId, bundleId, guilds } = await boundTwice();
    const [first, held, elsewhere, rebound] = guilds;
    expect((await deliverRefund(getApp(), orderId, 24_950)).status).toBe(200);
    const moved = await transfer(buyer, held, elsewhere);
    expect([moved.statusCode, moved.json().error?.code]).toEqual([409, 'BUNDLE_DAYS']);

    expect((await unbind(buyer, bundleId, held)).statusCode).toBe(200);
    expect((await bind(buyer, bundleId, rebound)).statusCode).toBe(200);
    await release();

    expect(await guildsWithPremium(guilds)).toEqual([first, rebound]);
    for (const guildId of [first, rebound]) {
      expect(near(await guildExpiry(guildId), Date.now() + 15 * DAY_MS)).toBe(true);
    }
    expect((await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => [guild.guildId, guild.state])).toEqual([
      [first, 'bound'],
      [rebound, 'bound'],
    ]);
    for (const guildId of guilds) await expectBotAgrees(guildId);
  });
});

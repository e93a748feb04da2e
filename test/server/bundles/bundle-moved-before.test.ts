import { movedBundleDays, reclaimMovedBundleDays } from '../../../src/core/bundles';
import {
  guildExpiry,
  guildsWithPremium,
  near,
  transferAsBefore,
  TRIO,
  useBundlesApp,
} from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliverRefund, manageGuild } from '../../support/payments-app';

const { getApp, buy, newestBundleOf, slotsOf, unbind, transfer, expectBotAgrees } = useBundlesApp({
  TRANSFER_COOLDOWN_DAYS: '0',
});

/** A Trio bound to A whose days a transfer of the last release moved to B. */
async function movedBefore() {
  const buyer = await createUser();
  const [a, b, c] = [await manageGuild(buyer), await manageGuild(buyer), await manageGuild(buyer)];
  const orderId = await buy(buyer, { ...TRIO, guildId: a });
  await transferAsBefore(getApp().core.sequelize, buyer, a, b);
  expect(await guildsWithPremium([a, b])).toEqual([b]);
  return { buyer, a, b, c, orderId, bundleId: await newestBundleOf(buyer) };
}

describe('bundle days a transfer moved before they stayed with their binding', () => {
  it('unbinding the guild takes them from where the transfer put them', async () => {
    const { buyer, a, b, bundleId } = await movedBefore();
    expect((await unbind(buyer, bundleId, a)).statusCode).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([]);
    expect((await slotsOf(buyer)).bundles[0]!.guilds).toEqual([]);
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });

  it('are not moved on by another transfer', async () => {
    const { buyer, b, c } = await movedBefore();
    const moved = await transfer(buyer, b, c);
    expect([moved.statusCode, moved.json().error?.code]).toEqual([409, 'BUNDLE_DAYS']);
    expect(await guildsWithPremium([b, c])).toEqual([b]);
  });

  it('a full refund takes them where they are', async () => {
    const { buyer, a, b, orderId } = await movedBefore();
    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([]);
    expect((await slotsOf(buyer)).bundles[0]).toMatchObject({ status: 'revoked', guilds: [] });
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });

  it('a half refund takes them where they are and gives what is left back to the bound guild', async () => {
    const { buyer, a, b, orderId } = await movedBefore();
    expect((await deliverRefund(getApp(), orderId, 24_950)).status).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([a]);
    expect(near(await guildExpiry(a), Date.now() + 15 * DAY_MS)).toBe(true);
    expect((await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => guild.guildId)).toEqual([a]);
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });

  it('an unbind that took nothing before: reclaim takes them where they are, once', async () => {
    const { buyer, a, b, bundleId } = await movedBefore();
    const { sequelize } = getApp().core;
    // What that release's unbind left: the binding unbound, no revoke, the days still on B.
    await sequelize.query(
      `UPDATE bundle_bindings SET unbound_at = now(), unbound_by = 'buyer' WHERE guild_id = $1`,
      {
        bind: [a],
      },
    );
    expect(await movedBundleDays(sequelize)).toEqual([
      expect.objectContaining({ bundleId, boundGuildId: a, guildId: b }),
    ]);

    const by = { actor: 'ops', reason: 'issue 44: bundle days moved by a transfer' };
    const [reclaimed] = await reclaimMovedBundleDays(sequelize, by);
    expect(reclaimed!.change).toMatchObject({ kind: 'revoke', guildId: b, source: 'bundle', days: -30 });
    expect(await guildsWithPremium([a, b])).toEqual([]);
    await expectBotAgrees(b);
    expect(await reclaimMovedBundleDays(sequelize, by)).toEqual([]);
    expect((await slotsOf(buyer)).bundles[0]!.guilds).toEqual([]);
  });
});

import type { LightMyRequestResponse } from 'fastify';
import type { User } from '../../../src/core/models';
import {
  guildExpiry,
  guildsWithPremium,
  MONTHLY_SERVER,
  near,
  TRIO,
  useBundlesApp,
} from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliverDispute, deliverRefund, manageGuild } from '../../support/payments-app';

// The issue's loop is some twenty requests before a test's own: more than 10 s when the shared machine
// is busy.
jest.setTimeout(30_000);

// The issue's loop moves days out of one guild round after round: no cooldown stands in its way.
const { getApp, buy, slotsOf, newestBundleOf, bind, unbind, transfer, expectBotAgrees } = useBundlesApp({
  TRANSFER_COOLDOWN_DAYS: '0',
});

/** Half of Trio's ₹499, in paise: a share of 15 of its 30 days, rounded up. */
const HALF = 24_950;

const errorOf = (reply: LightMyRequestResponse) => [reply.statusCode, reply.json().error?.code];

/** The guilds bound to the buyer's (only) bundle, as `GET /api/premium/slots` shows them. */
async function boundGuilds(buyer: User): Promise<string[]> {
  return (await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => guild.guildId);
}

/**
 * The issue's loop: a Trio bought for no guild, then four rounds of bind A, transfer A → a new guild B,
 * unbind A. Returns every guild that took part and the transfers' answers.
 */
async function issueLoop() {
  const buyer = await createUser();
  const orderId = await buy(buyer, TRIO);
  const bundleId = await newestBundleOf(buyer);
  const a = await manageGuild(buyer);
  const guilds = [a];
  const transfers: LightMyRequestResponse[] = [];
  for (let round = 0; round < 4; round += 1) {
    const b = await manageGuild(buyer);
    guilds.push(b);
    expect((await bind(buyer, bundleId, a)).statusCode).toBe(200);
    transfers.push(await transfer(buyer, a, b));
    expect((await unbind(buyer, bundleId, a)).statusCode).toBe(200);
  }
  return { buyer, orderId, bundleId, a, guilds, transfers };
}

/** After the loop, all three slots bound to guilds of the loop: A and the first two Bs. */
async function loopThenBindThree() {
  const loop = await issueLoop();
  const bound = loop.guilds.slice(0, 3);
  for (const guildId of bound) expect((await bind(loop.buyer, loop.bundleId, guildId)).statusCode).toBe(200);
  return { ...loop, bound };
}

describe('bundles and transfers: a bundle’s days stay with its slot', () => {
  it('the issue’s loop leaves no guild with the bundle’s days, and every transfer answers BUNDLE_DAYS', async () => {
    const { buyer, bundleId, a, guilds, transfers } = await issueLoop();

    expect(await guildsWithPremium(guilds)).toEqual([]);
    expect(await boundGuilds(buyer)).toEqual([]);
    for (const reply of transfers) {
      expect(errorOf(reply)).toEqual([409, 'BUNDLE_DAYS']);
      // It names the way that does move them: unbind, then bind.
      expect(reply.json().error.message).toContain(`DELETE /api/premium/slots/${bundleId}/bind/${a}`);
      expect(reply.json().error.message).toContain(`POST /api/premium/slots/${bundleId}/bind {"guildId"`);
    }
    for (const guildId of guilds) await expectBotAgrees(guildId);
  });

  it('after the loop, three bound guilds hold the days; a full refund takes them from those three', async () => {
    const { buyer, orderId, guilds, bound } = await loopThenBindThree();
    expect(await guildsWithPremium(guilds)).toEqual(bound);
    for (const guildId of bound)
      expect(near(await guildExpiry(guildId), Date.now() + 30 * DAY_MS)).toBe(true);

    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    expect(await guildsWithPremium(guilds)).toEqual([]);
    expect((await slotsOf(buyer)).bundles[0]).toMatchObject({ status: 'revoked', guilds: [] });
    for (const guildId of guilds) await expectBotAgrees(guildId);
  });

  it('after the loop, a half refund takes half from each bound guild and from no other', async () => {
    const { buyer, orderId, guilds, bound } = await loopThenBindThree();

    expect((await deliverRefund(getApp(), orderId, HALF)).status).toBe(200);
    expect(await guildsWithPremium(guilds)).toEqual(bound);
    for (const guildId of bound)
      expect(near(await guildExpiry(guildId), Date.now() + 15 * DAY_MS)).toBe(true);
    expect(await boundGuilds(buyer)).toEqual(bound);
    for (const guildId of guilds) await expectBotAgrees(guildId);
  });

  it('a guild with bought and bundle days moves only the bought days; a refund of them follows them', async () => {
    const buyer = await createUser();
    const [a, b] = [await manageGuild(buyer), await manageGuild(buyer)];
    const monthly = await buy(buyer, { ...MONTHLY_SERVER, guildId: a });
    const bundleOrder = await buy(buyer, { ...TRIO, guildId: a });
    const bundleId = await newestBundleOf(buyer);
    expect(near(await guildExpiry(a), Date.now() + 60 * DAY_MS)).toBe(true);

    const moved = await transfer(buyer, a, b);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().days).toBe(30);
    expect(near(await guildExpiry(a), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(near(await guildExpiry(b), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(await boundGuilds(buyer)).toEqual([a]);
    // Nothing of the buyer's own is left on A: only the bundle's days, which stay.
    expect(errorOf(await transfer(buyer, a, b))).toEqual([409, 'BUNDLE_DAYS']);

    expect((await unbind(buyer, bundleId, a)).statusCode).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([b]);
    expect((await deliverRefund(getApp(), monthly)).status).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([]);
    expect((await deliverRefund(getApp(), bundleOrder)).status).toBe(200);
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });

  it('a dispute after a refused transfer takes the bundle from the bound guild; won, it gives it back there', async () => {
    const buyer = await createUser();
    const [a, b] = [await manageGuild(buyer), await manageGuild(buyer)];
    const orderId = await buy(buyer, { ...TRIO, guildId: a });
    const bundleId = await newestBundleOf(buyer);
    expect(errorOf(await transfer(buyer, a, b))).toEqual([409, 'BUNDLE_DAYS']);

    const dispute = { disputeId: 'disp_BundleMoved1' };
    expect((await deliverDispute(getApp(), orderId, 'created', dispute)).status).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([]);
    expect((await deliverDispute(getApp(), orderId, 'won', dispute)).status).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([a]);
    expect(near(await guildExpiry(a), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(await boundGuilds(buyer)).toEqual([a]);
    // Moving the slot still works: unbind, bind.
    expect((await unbind(buyer, bundleId, a)).statusCode).toBe(200);
    expect((await bind(buyer, bundleId, b)).statusCode).toBe(200);
    expect(await guildsWithPremium([a, b])).toEqual([b]);
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });

  it('a dispute of half after a refused transfer takes half from the bound guild; won, the half comes back', async () => {
    const buyer = await createUser();
    const [a, b] = [await manageGuild(buyer), await manageGuild(buyer)];
    const orderId = await buy(buyer, { ...TRIO, guildId: a });
    expect(errorOf(await transfer(buyer, a, b))).toEqual([409, 'BUNDLE_DAYS']);

    const dispute = { disputeId: 'disp_BundleMoved2', amountPaise: HALF };
    expect((await deliverDispute(getApp(), orderId, 'created', dispute)).status).toBe(200);
    expect(near(await guildExpiry(a), Date.now() + 15 * DAY_MS)).toBe(true);
    expect(errorOf(await transfer(buyer, a, b))).toEqual([409, 'BUNDLE_DAYS']);
    expect((await deliverDispute(getApp(), orderId, 'won', dispute)).status).toBe(200);
    expect(near(await guildExpiry(a), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(await guildsWithPremium([a, b])).toEqual([a]);
    for (const guildId of [a, b]) await expectBotAgrees(guildId);
  });
});

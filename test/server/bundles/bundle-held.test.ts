import { randomBytes } from 'node:crypto';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { bundleRequests, guildExpiry, near, TRIO } from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliverDispute, deliverRefund, manageGuild, usePaymentsApp } from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: a bundle's second guild's revoke is held.
const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({
  BOT_API_TOKEN: TOKEN,
  BOT_RATE_LIMIT_PER_MINUTE: '100000',
  MAX_REVOKES_PER_HOUR: '1',
});
const { addTrio, buy, slotsOf, bind, expectBotAgrees } = bundleRequests(getApp, TOKEN);

beforeEach(addTrio);

async function boundTwice() {
  const buyer = await createUser();
  const [first, second] = [await manageGuild(buyer), await manageGuild(buyer)];
  const orderId = await buy(buyer, { ...TRIO, guildId: first });
  const [bundle] = (await slotsOf(buyer)).bundles;
  expect((await bind(buyer, bundle!.bundleId, second)).statusCode).toBe(200);
  return { buyer, first, second, orderId };
}

const statesOf = async (buyer: Parameters<typeof slotsOf>[0]) =>
  (await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => [guild.guildId, guild.state]);

const release = () => releaseHeldRevokes(getApp().core.sequelize, 'all', 'operator');

describe('bundles: a revoke the revocation guard holds', () => {
  it('keeps the guild bound and held until an operator releases it, then unbinds it', async () => {
    const { buyer, first, second, orderId } = await boundTwice();
    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    expect((await guildExpiry(first))!).toBeLessThanOrEqual(Date.now());
    expect(near(await guildExpiry(second), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(await statesOf(buyer)).toEqual([[second, 'held']]);
    for (const guildId of [first, second]) await expectBotAgrees(guildId);

    expect((await release()).map((released) => released.result)).toEqual(['revoked']);
    expect((await guildExpiry(second))!).toBeLessThanOrEqual(Date.now());
    expect(await statesOf(buyer)).toEqual([]);
    await expectBotAgrees(second);
  });

  it('a partial refund held: released, it takes the share and keeps the guild bound', async () => {
    const { buyer, first, second, orderId } = await boundTwice();
    expect((await deliverRefund(getApp(), orderId, 24_950)).status).toBe(200);
    expect(near(await guildExpiry(second), Date.now() + 30 * DAY_MS)).toBe(true);
    expect(await statesOf(buyer)).toEqual([
      [first, 'bound'],
      [second, 'held'],
    ]);

    await release();
    for (const guildId of [first, second]) {
      expect(near(await guildExpiry(guildId), Date.now() + 15 * DAY_MS)).toBe(true);
      await expectBotAgrees(guildId);
    }
    expect(await statesOf(buyer)).toEqual([
      [first, 'bound'],
      [second, 'bound'],
    ]);
  });

  it('a partial refund held, then the rest refunded: released, nothing of the bundle stays', async () => {
    const { buyer, first, second, orderId } = await boundTwice();
    expect((await deliverRefund(getApp(), orderId, 24_950)).status).toBe(200);
    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    // Held behind the first: the guard holds every automatic revoke while one waits.
    expect(await statesOf(buyer)).toEqual([
      [first, 'held'],
      [second, 'held'],
    ]);

    expect((await release()).map((released) => released.result)).toEqual(['revoked', 'revoked']);
    expect(await statesOf(buyer)).toEqual([]);
    for (const guildId of [first, second]) {
      expect((await guildExpiry(guildId))!).toBeLessThanOrEqual(Date.now());
      await expectBotAgrees(guildId);
    }
  });

  it('a won dispute withdraws the held revoke: the guild stays bound with its days', async () => {
    const { buyer, first, second, orderId } = await boundTwice();
    const dispute = { disputeId: 'disp_BundleHeld01' };
    expect((await deliverDispute(getApp(), orderId, 'created', dispute)).status).toBe(200);
    expect(await statesOf(buyer)).toEqual([[second, 'held']]);

    expect((await deliverDispute(getApp(), orderId, 'won', dispute)).status).toBe(200);
    expect(await release()).toEqual([]);
    expect(await statesOf(buyer)).toEqual([
      [first, 'bound'],
      [second, 'bound'],
    ]);
    for (const guildId of [first, second]) {
      expect(near(await guildExpiry(guildId), Date.now() + 30 * DAY_MS)).toBe(true);
      await expectBotAgrees(guildId);
    }
  });
});

import { randomBytes } from 'node:crypto';
import { execute, selectRows } from '../../../src/core/db/database';
import { PremiumGrant, type User } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { INSERT_MOVES, INSERT_TRANSFER } from '../../../src/core/transfers/sql';
import { bundleRequests, guildExpiry, guildsWithPremium, near, TRIO } from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliverRefund, manageGuild, usePaymentsApp } from '../../support/payments-app';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({
  BOT_API_TOKEN: TOKEN,
  BOT_RATE_LIMIT_PER_MINUTE: '100000',
  TRANSFER_COOLDOWN_DAYS: '0',
});
const { addTrio, buy, newestBundleOf, slotsOf, unbind, transfer, expectBotAgrees } = bundleRequests(
  getApp,
  TOKEN,
);

beforeEach(addTrio);

/**
 * What a transfer wrote before bundle days stayed with their binding: the bind's grant on `from` revoked
 * (source `transfer`), its days granted anew on `to`, the two linked in premium_transfer_moves.
 */
async function transferAsBefore(buyer: User, from: string, to: string): Promise<void> {
  const { sequelize } = getApp().core;
  const bound = await PremiumGrant.findOne({ where: { guildId: from, kind: 'grant', source: 'bundle' } });
  await sequelize.transaction(async (transaction) => {
    const described = { source: 'transfer', actor: `user:${buyer.providerId}`, reason: 'moved' } as const;
    const key = `transfer:before:${from}`;
    const removed = await revokePremium(
      sequelize,
      { ...described, target: { grantId: bound!.id }, idempotencyKey: `${key}:from` },
      { transaction },
    );
    const added = await grantPremium(
      sequelize,
      {
        ...described,
        category: 'SERVER',
        providerId: buyer.providerId,
        guildId: to,
        plan: { planType: 'Trio', months: null, durationDays: -removed.days, tier: 'premium' },
        idempotencyKey: `${key}:to`,
      },
      { transaction },
    );
    const values = [key, from, to, buyer.id, described.actor, 'moved', -removed.days];
    const [row] = await selectRows<{ id: number }>(transaction, INSERT_TRANSFER, [
      ...values,
      removed.grantId,
      added.grantId,
    ]);
    await execute(transaction, INSERT_MOVES, [row!.id, [bound!.id], [added.grantId]]);
  });
}

/** A Trio bound to A whose days a transfer of the last release moved to B. */
async function movedBefore() {
  const buyer = await createUser();
  const [a, b, c] = [await manageGuild(buyer), await manageGuild(buyer), await manageGuild(buyer)];
  const orderId = await buy(buyer, { ...TRIO, guildId: a });
  await transferAsBefore(buyer, a, b);
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
});

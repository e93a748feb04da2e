import { OutboxEvent, PremiumGrant, ServerPremium } from '../../../src/core/models';
import { seedPlan } from '../../support/fixtures';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const db = () => getCore().sequelize;

/** `days` from the moment `run` started, within the time `run` took. */
async function expectDaysFromNow(
  read: () => Promise<Date | null>,
  days: number,
  run: () => Promise<unknown>,
) {
  const before = Date.now();
  await run();
  const after = Date.now();
  const expiry = (await read())!.getTime();
  expect(expiry).toBeGreaterThanOrEqual(before + days * DAY_MS - 1000);
  expect(expiry).toBeLessThanOrEqual(after + days * DAY_MS + 1000);
}

const serverGrant = (providerId: string, guildId: string, plan = seedPlan('Monthly')) =>
  grantRequest(providerId, { category: 'SERVER', guildId, plan });

let revokeKey = 0;
const revoke = (target: Parameters<typeof revokePremium>[1]['target']) =>
  revokePremium(db(), {
    target,
    source: 'manual',
    actor: 'test',
    reason: 'refund',
    idempotencyKey: `buyer-rule-revoke:${++revokeKey}`,
  });

describe('a SERVER purchase gives its buyer only what they paid for', () => {
  it('does not make a buyer personally premium for days another member gave the guild', async () => {
    const [member, manager] = [await createUser(), await createUser()];
    const guildId = snowflake();
    const threeYears = await grantPremium(
      db(),
      serverGrant(member.providerId, guildId, seedPlan('Custom', 36)),
    );
    expect((await member.reload()).premiumExpiresAt).toEqual(threeYears.expiresAt);

    let monthly: Awaited<ReturnType<typeof grantPremium>> | undefined;
    await expectDaysFromNow(
      async () => (await manager.reload()).premiumExpiresAt,
      30,
      async () => (monthly = await grantPremium(db(), serverGrant(manager.providerId, guildId))),
    );
    // The guild itself has both purchases.
    expect(monthly!.expiresAt.getTime()).toBe(threeYears.expiresAt.getTime() + 30 * DAY_MS);
    expect((await ServerPremium.findOne({ where: { guildId } }))!.expiresAt).toEqual(monthly!.expiresAt);
    // The event still says the guild's expiry: that is what the bot applies.
    const added = await OutboxEvent.findOne({
      where: { type: 'SERVER_PREMIUM_ADD' },
      order: [['id', 'DESC']],
    });
    expect(added!.payload).toMatchObject({
      providerId: manager.providerId,
      expiresAt: monthly!.expiresAt.toISOString(),
    });
  });

  it("stacks the buyer's own purchases for a guild, and never lowers the buyer's own USER premium", async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    await expectDaysFromNow(
      async () => (await buyer.reload()).premiumExpiresAt,
      60,
      async () => {
        await grantPremium(db(), serverGrant(buyer.providerId, guildId));
        await grantPremium(db(), serverGrant(buyer.providerId, guildId));
      },
    );
    const yearly = await grantPremium(db(), grantRequest(buyer.providerId, { plan: seedPlan('Yearly') }));
    await grantPremium(db(), serverGrant(buyer.providerId, snowflake()));
    expect((await buyer.reload()).premiumExpiresAt).toEqual(yearly.expiresAt);
  });

  it('recomputes every buyer by the same rule when a grant is revoked', async () => {
    const [member, manager] = [await createUser(), await createUser()];
    const guildId = snowflake();
    const threeYears = await grantPremium(
      db(),
      serverGrant(member.providerId, guildId, seedPlan('Custom', 36)),
    );
    const monthly = await grantPremium(db(), serverGrant(manager.providerId, guildId));
    const managerExpiry = (await manager.reload()).premiumExpiresAt!;

    // The member's three years are refunded: the guild keeps the manager's month, the member has nothing.
    const refund = await revoke({ grantId: threeYears.grantId });
    // What is left of the three years (in use since granted): the manager's month stays whole.
    const leftOfThreeYears = threeYears.expiresAt.getTime() - Date.now();
    expect(refund.expiresAt.getTime()).toBeGreaterThanOrEqual(monthly.expiresAt.getTime() - 1080 * DAY_MS);
    expect(refund.expiresAt.getTime()).toBeLessThanOrEqual(monthly.expiresAt.getTime() - leftOfThreeYears);
    expect((await member.reload()).premiumExpiresAt).toBeNull();
    const afterRefund = (await manager.reload()).premiumExpiresAt!;
    // The lesser of the month the manager paid for and what the guild has left.
    expect(afterRefund.getTime()).toBe(Math.min(managerExpiry.getTime(), refund.expiresAt.getTime()));

    // The manager's own month refunded too: nothing is left to anyone.
    await revoke({ grantId: monthly.grantId });
    expect((await manager.reload()).premiumExpiresAt).toBeNull();
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(2);
  });

  it("keeps the buyer's own USER premium when the guild's premium is ended", async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    const own = await grantPremium(db(), grantRequest(buyer.providerId));
    await grantPremium(db(), serverGrant(buyer.providerId, guildId, seedPlan('Yearly')));
    await revoke({ category: 'SERVER', guildId });
    expect((await buyer.reload()).premiumExpiresAt).toEqual(own.expiresAt);
  });
});

import { OutboxEvent, PremiumGrant, ServerPremium, UserPremium } from '../../../src/core/models';
import { seedPlan } from '../../support/fixtures';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium, type RequestedRevoke } from '../../../src/core/premium/revoke';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const db = () => getCore().sequelize;

let nextKey = 0;
function revokeRequest(target: RequestedRevoke['target']): RequestedRevoke {
  return {
    target,
    source: 'manual',
    actor: 'test',
    reason: 'refunded by support',
    idempotencyKey: `revoke:${++nextKey}`,
  };
}

describe('revokePremium', () => {
  it("takes one grant's days back and announces the removal", async () => {
    const user = await createUser();
    const first = await grantPremium(db(), grantRequest(user.providerId));
    const second = await grantPremium(db(), grantRequest(user.providerId, { plan: seedPlan('Yearly') }));

    const change = await revokePremium(db(), revokeRequest({ grantId: second.grantId }));

    expect(change).toMatchObject({ kind: 'revoke', days: -365, expiresBefore: second.expiresAt, version: 3 });
    expect(change.expiresAt).toEqual(first.expiresAt);
    expect((await user.reload()).premiumExpiresAt).toEqual(first.expiresAt);
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({
      eventId: change.eventId,
      providerId: user.providerId,
      expiresAt: first.expiresAt.toISOString(),
      version: 3,
      durationDays: 365,
      reason: 'refunded by support',
    });
  });

  it('never moves an expiry below now, and the user stops being premium', async () => {
    const user = await createUser();
    const grant = await grantPremium(db(), grantRequest(user.providerId));
    await UserPremium.update(
      { expiresAt: new Date(Date.now() + 5 * DAY_MS) },
      { where: { userId: user.id } },
    );

    const change = await revokePremium(db(), revokeRequest({ grantId: grant.grantId }));

    expect(change.expiresAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(change.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBe(change.expiresAt.getTime());
  });

  it('records only the days really taken when the record has already run out', async () => {
    const user = await createUser();
    const grant = await grantPremium(db(), grantRequest(user.providerId));
    const lapsedAt = new Date(Date.now() - DAY_MS);
    await UserPremium.update({ expiresAt: lapsedAt }, { where: { userId: user.id } });

    const change = await revokePremium(db(), revokeRequest({ grantId: grant.grantId }));

    expect(change.days).toBe(0);
    expect(change.expiresAt).toEqual(lapsedAt);
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({ durationDays: 0, version: change.version });
  });

  it('refuses to revoke the same grant twice, and replays a repeated key', async () => {
    const user = await createUser();
    const grant = await grantPremium(db(), grantRequest(user.providerId));
    const request = revokeRequest({ grantId: grant.grantId });
    const first = await revokePremium(db(), request);
    expect(await revokePremium(db(), request)).toEqual({ ...first, replayed: true });
    await expect(revokePremium(db(), revokeRequest({ grantId: grant.grantId }))).rejects.toMatchObject({
      code: 'ALREADY_REVOKED',
    });
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
    expect(await OutboxEvent.count({ where: { type: 'USER_PREMIUM_REMOVE' } })).toBe(1);
  });

  it('ends everything a guild has and keeps the buyer premium through their own record', async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    const own = await grantPremium(db(), grantRequest(buyer.providerId));
    await grantPremium(
      db(),
      grantRequest(buyer.providerId, { category: 'SERVER', guildId, plan: seedPlan('Yearly') }),
    );

    const change = await revokePremium(db(), revokeRequest({ category: 'SERVER', guildId }));

    expect(change).toMatchObject({ category: 'SERVER', guildId, providerId: buyer.providerId });
    expect((await ServerPremium.findOne({ where: { guildId } }))!.expiresAt.getTime()).toBeLessThanOrEqual(
      Date.now(),
    );
    expect((await buyer.reload()).premiumExpiresAt).toEqual(own.expiresAt);
    expect(await OutboxEvent.count({ where: { type: 'SERVER_PREMIUM_REMOVE' } })).toBe(1);
  });

  it("ends a guild bought by two users for both, and a refund of one buyer's grant leaves only the other premium", async () => {
    const [first, second] = [await createUser(), await createUser()];
    const guildId = snowflake();
    const firstGrant = await grantPremium(
      db(),
      grantRequest(first.providerId, { category: 'SERVER', guildId }),
    );
    const secondGrant = await grantPremium(
      db(),
      grantRequest(second.providerId, { category: 'SERVER', guildId }),
    );

    const refund = await revokePremium(db(), revokeRequest({ grantId: firstGrant.grantId }));
    // What is left of the first month (in use since it was granted): the second buyer's month stays whole.
    const leftOfFirst = firstGrant.expiresAt.getTime() - Date.now();
    expect(refund.expiresAt.getTime()).toBeGreaterThanOrEqual(secondGrant.expiresAt.getTime() - 30 * DAY_MS);
    expect(refund.expiresAt.getTime()).toBeLessThanOrEqual(secondGrant.expiresAt.getTime() - leftOfFirst);
    expect((await first.reload()).premiumExpiresAt).toBeNull();
    // The second buyer's own month, from when they bought it: the guild's record, to the milliseconds since.
    const secondExpiry = (await second.reload()).premiumExpiresAt!.getTime();
    expect(secondExpiry).toBeLessThanOrEqual(refund.expiresAt.getTime());
    expect(secondExpiry).toBeGreaterThan(refund.expiresAt.getTime() - 60_000);

    await revokePremium(db(), revokeRequest({ category: 'SERVER', guildId }));
    expect((await second.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await first.reload()).premiumExpiresAt).toBeNull();
  });

  it('reports a target without premium and writes nothing', async () => {
    const user = await createUser();
    await expect(
      revokePremium(db(), revokeRequest({ category: 'USER', providerId: user.providerId })),
    ).rejects.toMatchObject({
      code: 'NO_PREMIUM',
    });
    await expect(revokePremium(db(), revokeRequest({ grantId: 999 }))).rejects.toMatchObject({
      code: 'GRANT_NOT_FOUND',
    });
    expect(await UserPremium.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);
  });
});

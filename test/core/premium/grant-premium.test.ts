import { Sequelize } from 'sequelize';
import { seedPlan } from '../../support/fixtures';
import { AppError } from '../../../src/core/errors';
import { OutboxEvent, PremiumGrant, ServerPremium, User, UserPremium } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const db = (): Sequelize => getCore().sequelize;

async function dbNow(): Promise<number> {
  const [row] = await db().query<{ now: Date }>('SELECT now() AS now', { type: 'SELECT' as never });
  return row!.now.getTime();
}

describe('grantPremium', () => {
  it('grants a new user 30 days, writes one ledger row and one outbox event', async () => {
    const user = await createUser();
    const before = await dbNow();
    const change = await grantPremium(db(), grantRequest(user.providerId));
    const after = await dbNow();

    expect(change.expiresAt.getTime()).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(change.expiresAt.getTime()).toBeLessThanOrEqual(after + 30 * DAY_MS);
    expect(change).toMatchObject({
      kind: 'grant',
      category: 'USER',
      days: 30,
      expiresBefore: null,
      version: 1,
      replayed: false,
    });

    const record = await UserPremium.findOne({ where: { userId: user.id } });
    expect(record).toMatchObject({ slots: 1, version: 1 });
    expect(record!.expiresAt).toEqual(change.expiresAt);
    expect((await user.reload()).premiumExpiresAt).toEqual(change.expiresAt);

    const ledger = await PremiumGrant.findAll();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      source: 'manual',
      actor: 'test',
      reason: 'test grant',
      days: 30,
      planType: 'Monthly',
    });

    const events = await OutboxEvent.findAll();
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('USER_PREMIUM_ADD');
    expect(events[0]!.payload).toEqual({
      eventId: change.eventId,
      type: 'USER_PREMIUM_ADD',
      occurredAt: expect.any(String),
      providerId: user.providerId,
      guildId: null,
      category: 'USER',
      planType: 'Monthly',
      durationDays: 30,
      slots: 1,
      expiresAt: change.expiresAt.toISOString(),
      version: 1,
      orderId: null,
      source: 'manual',
      tier: 'premium',
      features: {},
    });
  });

  it('extends an active record from its expiry', async () => {
    const user = await createUser();
    const first = await grantPremium(db(), grantRequest(user.providerId));
    const second = await grantPremium(db(), grantRequest(user.providerId, { plan: seedPlan('Yearly') }));
    expect(second.expiresBefore).toEqual(first.expiresAt);
    expect(second.expiresAt.getTime()).toBe(first.expiresAt.getTime() + 365 * DAY_MS);
    expect(second.version).toBe(2);
  });

  it('extends an expired record from now, not from the old expiry', async () => {
    const user = await createUser();
    await grantPremium(db(), grantRequest(user.providerId));
    await UserPremium.update(
      { expiresAt: new Date(Date.now() - 90 * DAY_MS) },
      { where: { userId: user.id } },
    );
    const start = await dbNow();
    const change = await grantPremium(db(), grantRequest(user.providerId, { plan: seedPlan('Custom', 3) }));
    expect(change.expiresAt.getTime()).toBeGreaterThanOrEqual(start + 90 * DAY_MS);
    expect(change.expiresAt.getTime()).toBeLessThan(start + 90 * DAY_MS + 60_000);
  });

  it('adds exactly 50 × 30 days for 50 concurrent grants, with 50 ledger rows and 50 events', async () => {
    const user = await createUser();
    const first = await grantPremium(db(), grantRequest(user.providerId));
    await Promise.all(Array.from({ length: 49 }, () => grantPremium(db(), grantRequest(user.providerId))));

    const record = await UserPremium.findOne({ where: { userId: user.id } });
    expect(record!.expiresAt.getTime()).toBe(first.expiresAt.getTime() + 49 * 30 * DAY_MS);
    expect(record!.version).toBe(50);
    expect(await PremiumGrant.count()).toBe(50);
    expect(await OutboxEvent.count()).toBe(50);
    expect((await user.reload()).premiumExpiresAt).toEqual(record!.expiresAt);

    // Each grant saw the record as the one before it left it: the ledger is a chain, and so are the events.
    const ledger = await PremiumGrant.findAll({ order: [['version', 'ASC']] });
    const events = new Map((await OutboxEvent.findAll()).map((event) => [event.eventId, event.payload]));
    ledger.forEach((row, i) => {
      expect(row.version).toBe(i + 1);
      expect(row.expiresBefore).toEqual(i === 0 ? null : ledger[i - 1]!.expiresAfter);
      expect(events.get(row.eventId)).toMatchObject({
        version: row.version,
        expiresAt: row.expiresAfter.toISOString(),
      });
    });
  });

  it('writes nothing for a repeated idempotency key and returns the first change', async () => {
    const user = await createUser();
    const request = grantRequest(user.providerId);
    const first = await grantPremium(db(), request);
    const again = await grantPremium(db(), request);
    const concurrent = await Promise.all([grantPremium(db(), request), grantPremium(db(), request)]);

    for (const replay of [again, ...concurrent]) {
      expect(replay).toEqual({ ...first, replayed: true });
    }
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.version).toBe(1);
  });

  it('leaves no grant and no event when the surrounding transaction fails after the grant', async () => {
    const user = await createUser();
    await expect(
      db().transaction(async (transaction) => {
        await grantPremium(db(), grantRequest(user.providerId), { transaction });
        throw new Error('payment bookkeeping failed');
      }),
    ).rejects.toThrow('payment bookkeeping failed');

    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);
    expect(await UserPremium.count()).toBe(0);
    expect((await user.reload()).premiumExpiresAt).toBeNull();
  });

  it('extends the guild record for a SERVER grant and raises the buyer expiry', async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    const change = await grantPremium(db(), grantRequest(buyer.providerId, { category: 'SERVER', guildId }));

    const record = await ServerPremium.findOne({ where: { guildId } });
    expect(record).toMatchObject({ buyerUserId: buyer.id, version: 1, slots: 1 });
    expect(record!.expiresAt).toEqual(change.expiresAt);
    expect(await UserPremium.count()).toBe(0);
    expect((await buyer.reload()).premiumExpiresAt).toEqual(change.expiresAt);
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({
      type: 'SERVER_PREMIUM_ADD',
      category: 'SERVER',
      guildId,
      providerId: buyer.providerId,
    });
    expect(event!.aggregateKey).toBe(`guild:${guildId}`);
  });

  it('refuses an unknown user and a SERVER grant without a guild, writing nothing', async () => {
    await expect(grantPremium(db(), grantRequest(snowflake()))).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    const user = await createUser();
    await expect(
      grantPremium(db(), grantRequest(user.providerId, { category: 'SERVER', guildId: null })),
    ).rejects.toBeInstanceOf(AppError);
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);
    expect(await User.count()).toBe(1);
  });
});

import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { OutboxEvent, PremiumGrant, ServerPremium, UserPremium } from '../../../src/core/models';
import { findGuildPremium } from '../../../src/core/bot/premium-records';
import { grantPremium } from '../../../src/core/premium/grant';
import { grantRemainders } from '../../../src/core/premium/remaining';
import { revokePremium, type RequestedRevoke } from '../../../src/core/premium/revoke';
import type { PremiumEventPayload } from '../../../src/core/premium/types';
import { transferPremium } from '../../../src/core/transfers/transfer';
import { getPremiumStatus } from '../../../src/core/users';
import { expiryJob } from '../../../src/worker/jobs/expiry';
import { runExclusively } from '../../../src/worker/scheduler';
import { useKit } from '../../bot-kit/support';
import { useTestApp } from '../../support/app';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';
import { pendingRows, readStream } from '../../support/outbox-stream';
import { manageGuild } from '../../support/payments-app';
import { useRelays } from '../../support/relays';
import { pollUntil } from '../../support/wait';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = useTestApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });
const db = () => getApp().core.sequelize;

/** The features of the `pro` tier each test adds above the default tier `premium` (rank 1). */
const PRO = { music: true };

beforeEach(async () => {
  await db().query(
    `INSERT INTO tiers (code, name, rank, features) VALUES ('pro', 'Pro', 2, '{"music": true}')`,
  );
});

const near = (actual: Date | string, expected: number, withinMs = 5_000) =>
  expect(Math.abs(new Date(actual).getTime() - expected)).toBeLessThan(withinMs);

/** The end of each tier's days on a record, by tier. */
async function tierEnds(where: { userId: number } | { guildId: string }): Promise<Record<string, Date>> {
  const [days, records, key] =
    'userId' in where
      ? ['user_premium_days', 'user_premiums', 'r.user_id = $1']
      : ['server_premium_days', 'server_premiums', 'r.guild_id = $1'];
  const rows = await db().query<{ tier: string; ends_at: Date }>(
    `SELECT d.tier, d.ends_at FROM ${days} d JOIN ${records} r ON r.id = d.record_id WHERE ${key}`,
    { bind: ['userId' in where ? where.userId : where.guildId], type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((row) => [row.tier, row.ends_at]));
}

async function events(): Promise<PremiumEventPayload[]> {
  return (await OutboxEvent.findAll({ order: [['id', 'ASC']] })).map((row) => row.payload);
}

/** Every instant the database holds moves `days` into the past, as if that much time went by. */
async function travel(days: number): Promise<void> {
  const back = `make_interval(secs => ${days} * 86400)`;
  await db().query(`
    UPDATE user_premium_days SET ends_at = ends_at - ${back};
    UPDATE server_premium_days SET ends_at = ends_at - ${back};
    UPDATE user_premiums SET expires_at = expires_at - ${back}, tier_changes_at = tier_changes_at - ${back},
      tier_days_written = tier_days_written + 1;
    UPDATE server_premiums SET expires_at = expires_at - ${back}, tier_changes_at = tier_changes_at - ${back},
      tier_days_written = tier_days_written + 1;
    UPDATE premium_grants SET created_at = created_at - ${back}, expires_before = expires_before - ${back},
      expires_after = expires_after - ${back};
    UPDATE users SET premium_expires_at = premium_expires_at - ${back};
    UPDATE user_tier_expiries SET expires_at = expires_at - ${back};`);
}

let nextKey = 0;
function revokeRequest(target: RequestedRevoke['target']): RequestedRevoke {
  return { target, source: 'manual', actor: 'test', reason: 'refund', idempotencyKey: `revoke:${++nextKey}` };
}

const remainders = (record: Parameters<typeof grantRemainders>[1]) =>
  db().transaction((transaction) => grantRemainders(transaction, record));

const runExpiry = () => runExclusively(getApp().core, expiryJob, pino({ level: 'silent' }));

describe('stacked tier days', () => {
  it('runs the higher tier first: 30 days of premium, then 30 of pro, run pro for 30 days and premium 30 more', async () => {
    const user = await createUser();
    const premium = await grantPremium(db(), grantRequest(user.providerId));
    const grantedAt = Date.now();
    const pro = await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));

    // The record's expiry moves as it always did: GREATEST(expiry, now) + the days.
    expect(pro).toMatchObject({ tier: 'pro', days: 30, expiresBefore: premium.expiresAt, version: 2 });
    expect(pro.expiresAt.getTime()).toBe(premium.expiresAt.getTime() + 30 * DAY_MS);
    near(pro.expiresAt, Date.now() + 60 * DAY_MS);
    const ends = await tierEnds({ userId: user.id });
    near(ends.pro!, grantedAt + 30 * DAY_MS);
    expect(ends.premium).toEqual(pro.expiresAt);

    expect(await getPremiumStatus(db(), user.providerId)).toEqual({
      isPremium: true,
      premiumExpiresAt: pro.expiresAt.toISOString(),
      tier: 'pro',
      features: PRO,
      // Each tier's own days: pro from now, premium from pro's end.
      tiers: [
        { tier: 'pro', startsAt: expect.any(String), expiresAt: ends.pro!.toISOString() },
        { tier: 'premium', startsAt: ends.pro!.toISOString(), expiresAt: pro.expiresAt.toISOString() },
      ],
    });
    expect((await user.reload()).premiumExpiresAt).toEqual(pro.expiresAt);
    // One event per change, each a new version: ADD, then UPDATE for the upgrade.
    expect(await events()).toEqual([
      expect.objectContaining({ type: 'USER_PREMIUM_ADD', version: 1, tier: 'premium', features: {} }),
      expect.objectContaining({
        type: 'USER_PREMIUM_UPDATE',
        eventId: pro.eventId,
        version: 2,
        tier: 'pro',
        features: PRO,
        durationDays: 30,
        expiresAt: pro.expiresAt.toISOString(),
      }),
    ]);
  });

  it('keeps a lower tier bought while a higher one runs for after it: an ADD, the running tier unchanged', async () => {
    const user = await createUser();
    const pro = await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));
    const premium = await grantPremium(db(), grantRequest(user.providerId));

    expect(premium.expiresAt.getTime()).toBe(pro.expiresAt.getTime() + 30 * DAY_MS);
    expect(await tierEnds({ userId: user.id })).toEqual({ pro: pro.expiresAt, premium: premium.expiresAt });
    expect((await events()).map((event) => [event.type, event.tier])).toEqual([
      ['USER_PREMIUM_ADD', 'pro'],
      ['USER_PREMIUM_ADD', 'pro'],
    ]);
  });

  it('stacks a floor (a subscription grace) on the tier it grants, and the lower tiers wait for all of it', async () => {
    const user = await createUser();
    const premium = await grantPremium(db(), grantRequest(user.providerId));
    const floor = new Date(Date.now() + 33 * DAY_MS);
    const pro = await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro', atLeastUntil: floor }));

    const ends = await tierEnds({ userId: user.id });
    expect(ends.pro).toEqual(floor);
    near(ends.premium!, premium.expiresAt.getTime() + 33 * DAY_MS);
    expect(pro.expiresAt).toEqual(ends.premium);
  });

  it('takes a refunded pro grant back: premium ends where it did before, announced as an UPDATE to premium', async () => {
    const user = await createUser();
    const premium = await grantPremium(db(), grantRequest(user.providerId));
    const pro = await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));

    const refund = await revokePremium(db(), revokeRequest({ grantId: pro.grantId }));

    expect(refund).toMatchObject({ kind: 'revoke', tier: 'pro', days: -30, version: 3 });
    near(refund.expiresAt, premium.expiresAt.getTime());
    const ends = await tierEnds({ userId: user.id });
    expect(ends.pro!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(ends.premium).toEqual(refund.expiresAt);
    expect((await events()).at(-1)).toMatchObject({
      type: 'USER_PREMIUM_UPDATE',
      eventId: refund.eventId,
      version: 3,
      tier: 'premium',
      features: {},
      durationDays: 30,
      reason: 'refund',
      expiresAt: refund.expiresAt.toISOString(),
    });
    expect(await getPremiumStatus(db(), user.providerId)).toMatchObject({
      tier: 'premium',
      features: {},
      tiers: [{ tier: 'premium', expiresAt: refund.expiresAt.toISOString() }],
      premiumExpiresAt: refund.expiresAt.toISOString(),
    });
  });

  it("takes a refunded premium grant's days from premium only, while pro runs on: a REMOVE naming pro", async () => {
    const user = await createUser();
    const premium = await grantPremium(db(), grantRequest(user.providerId));
    const pro = await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));
    const proEnds = (await tierEnds({ userId: user.id })).pro!;

    const refund = await revokePremium(db(), revokeRequest({ grantId: premium.grantId }));

    expect(refund).toMatchObject({ tier: 'premium', days: -30, expiresAt: proEnds });
    expect(await tierEnds({ userId: user.id })).toEqual({ pro: proEnds, premium: proEnds });
    expect((await events()).at(-1)).toMatchObject({
      type: 'USER_PREMIUM_REMOVE',
      tier: 'pro',
      features: PRO,
    });
    expect(await getPremiumStatus(db(), user.providerId)).toMatchObject({
      tier: 'pro',
      tiers: [{ tier: 'pro', expiresAt: proEnds.toISOString() }],
    });
    // What is left of each grant is counted in its own tier.
    const left = await remainders({ category: 'USER', userId: user.id, guildId: null });
    expect(left.map(({ grantId, tier, revoked }) => ({ grantId, tier, revoked }))).toEqual([
      { grantId: premium.grantId, tier: 'premium', revoked: true },
      { grantId: pro.grantId, tier: 'pro', revoked: false },
    ]);
    near(new Date(Date.now() + left[1]!.remainingMs), proEnds.getTime());
  });

  it('ends every tier at once when an operator ends the record', async () => {
    const user = await createUser();
    await grantPremium(db(), grantRequest(user.providerId));
    await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));

    const ended = await revokePremium(db(), revokeRequest({ category: 'USER', providerId: user.providerId }));

    expect(ended).toMatchObject({ tier: 'pro' });
    for (const end of Object.values(await tierEnds({ userId: user.id })))
      expect(end.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await events()).at(-1)).toMatchObject({ type: 'USER_PREMIUM_REMOVE', tier: null, features: {} });
    expect(await getPremiumStatus(db(), user.providerId)).toMatchObject({
      isPremium: false,
      tier: null,
      tiers: [],
    });
  });

  it('takes a partial dispute of a pro grant from pro only; a transfer then moves the undisputed premium alone', async () => {
    const [premiumBuyer, proBuyer] = [await createUser(), await createUser()];
    const [from, to] = [snowflake(), snowflake()];
    const premium = await grantPremium(
      db(),
      grantRequest(premiumBuyer.providerId, { category: 'SERVER', guildId: from }),
    );
    const pro = await grantPremium(
      db(),
      grantRequest(proBuyer.providerId, { category: 'SERVER', guildId: from, tier: 'pro' }),
    );

    // A dispute of half the pro payment takes half of what the pro grant added: 15 days of pro.
    const disputed = await revokePremium(db(), revokeRequest({ grantId: pro.grantId, share: 0.5 }));
    expect(disputed).toMatchObject({ tier: 'pro', days: -15 });
    const ends = await tierEnds({ guildId: from });
    near(ends.pro!, Date.now() + 15 * DAY_MS);
    near(ends.premium!, Date.now() + 45 * DAY_MS);
    expect((await events()).at(-1)).toMatchObject({ type: 'SERVER_PREMIUM_REMOVE', tier: 'pro' });
    const left = await remainders({ category: 'SERVER', userId: premiumBuyer.id, guildId: from });
    const leftOf = (grantId: number) => left.find((grant) => grant.grantId === grantId)!.remainingMs;
    near(new Date(Date.now() + leftOf(premium.grantId)), Date.now() + 30 * DAY_MS);
    near(new Date(Date.now() + leftOf(pro.grantId)), Date.now() + 15 * DAY_MS);

    // The disputed pro grant stays (under dispute); the premium moves, and stays premium.
    const moved = await transferPremium(db(), {
      fromGuildId: from,
      toGuildId: to,
      by: { kind: 'operator' },
      actor: 'support',
      reason: 'ticket 1',
      idempotencyKey: 'move-premium',
    });

    expect(moved.days).toBe(30);
    expect(await tierEnds({ guildId: from })).toEqual({ pro: ends.pro, premium: ends.pro });
    near((await tierEnds({ guildId: to })).premium!, Date.now() + 30 * DAY_MS, 60_000);
    expect(await findGuildPremium(db(), from)).toMatchObject({ tier: 'pro', features: PRO });
    expect(await findGuildPremium(db(), to)).toMatchObject({ tier: 'premium', features: {} });
  });

  it("moves each purchase in its own tier: an operator's transfer of pro and premium runs pro first there too", async () => {
    const [premiumBuyer, proBuyer] = [await createUser(), await createUser()];
    const [from, to] = [snowflake(), snowflake()];
    await grantPremium(db(), grantRequest(premiumBuyer.providerId, { category: 'SERVER', guildId: from }));
    await grantPremium(
      db(),
      grantRequest(proBuyer.providerId, { category: 'SERVER', guildId: from, tier: 'pro' }),
    );
    const before = (await events()).length;

    const moved = await transferPremium(db(), {
      fromGuildId: from,
      toGuildId: to,
      by: { kind: 'operator' },
      actor: 'support',
      reason: 'ticket 2',
      idempotencyKey: 'move-both',
    });

    expect(moved.days).toBe(60);
    const target = await tierEnds({ guildId: to });
    near(target.pro!, Date.now() + 30 * DAY_MS, 60_000);
    near(target.premium!, Date.now() + 60 * DAY_MS, 60_000);
    for (const end of Object.values(await tierEnds({ guildId: from })))
      expect(end.getTime()).toBeLessThanOrEqual(Date.now());
    const added = await PremiumGrant.findAll({ where: { guildId: to }, order: [['id', 'ASC']] });
    expect(added.map((grant) => [grant.userId, grant.tier, grant.days])).toEqual([
      [premiumBuyer.id, 'premium', 30],
      [proBuyer.id, 'pro', 30],
    ]);
    // Each move one event per guild and change: what left the source, what came to the target.
    expect((await events()).slice(before).map((event) => [event.type, event.guildId, event.tier])).toEqual([
      ['SERVER_PREMIUM_REMOVE', from, 'pro'],
      ['SERVER_PREMIUM_ADD', to, 'premium'],
      ['SERVER_PREMIUM_REMOVE', from, null],
      ['SERVER_PREMIUM_UPDATE', to, 'pro'],
    ]);
  });

  it("moves a manager's own tier only: the other buyer's pro stays and runs on, the event naming it", async () => {
    const [premiumBuyer, proBuyer] = [await createUser(), await createUser()];
    const from = await manageGuild(premiumBuyer);
    const to = await manageGuild(premiumBuyer);
    await grantPremium(db(), grantRequest(premiumBuyer.providerId, { category: 'SERVER', guildId: from }));
    const pro = await grantPremium(
      db(),
      grantRequest(proBuyer.providerId, { category: 'SERVER', guildId: from, tier: 'pro' }),
    );
    const proEnds = (await tierEnds({ guildId: from })).pro!;
    const before = (await events()).length;

    const moved = await transferPremium(db(), {
      fromGuildId: from,
      toGuildId: to,
      by: { kind: 'manager', providerId: premiumBuyer.providerId, cooldownDays: 0 },
      actor: premiumBuyer.providerId,
      reason: 'moving',
      idempotencyKey: 'move-premium',
    });

    expect(moved.days).toBe(30);
    expect(await tierEnds({ guildId: from })).toEqual({ pro: proEnds, premium: proEnds });
    expect((await ServerPremium.findOne({ where: { guildId: from } }))!.expiresAt).toEqual(proEnds);
    near((await tierEnds({ guildId: to })).premium!, Date.now() + 30 * DAY_MS, 60_000);
    expect((await events()).slice(before).map((event) => [event.type, event.guildId, event.tier])).toEqual([
      ['SERVER_PREMIUM_REMOVE', from, 'pro'],
      ['SERVER_PREMIUM_ADD', to, 'premium'],
    ]);
    // The pro buyer's refund still takes their pro days, where they are.
    const refund = await revokePremium(db(), revokeRequest({ grantId: pro.grantId }));
    expect(refund).toMatchObject({ guildId: from, tier: 'pro', days: -30 });
  });

  it('announces a higher tier ending over a lower one once, as an UPDATE from the expiry job', async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    await grantPremium(db(), grantRequest(buyer.providerId, { category: 'SERVER', guildId }));
    await grantPremium(db(), grantRequest(buyer.providerId, { category: 'SERVER', guildId, tier: 'pro' }));
    expect(await runExpiry()).toBe('ran');
    expect(await events()).toHaveLength(2);

    await travel(30.001);
    expect(await runExpiry()).toBe('ran');
    expect(await runExpiry()).toBe('ran');

    const record = (await ServerPremium.findOne({ where: { guildId } }))!;
    expect(record.version).toBe(3);
    const [update, ...rest] = (await events()).slice(2);
    expect(rest).toEqual([]);
    expect(update).toMatchObject({
      type: 'SERVER_PREMIUM_UPDATE',
      source: 'expiry',
      guildId,
      providerId: buyer.providerId,
      version: 3,
      tier: 'premium',
      features: {},
      durationDays: 0,
      expiresAt: record.expiresAt.toISOString(),
    });
    expect(await findGuildPremium(db(), guildId)).toMatchObject({
      tier: 'premium',
      features: {},
      version: 3,
    });

    // Then the record runs out: one REMOVE, no tier.
    await travel(30);
    await runExpiry();
    await runExpiry();
    expect((await events()).slice(3)).toEqual([
      expect.objectContaining({
        type: 'SERVER_PREMIUM_REMOVE',
        reason: 'expired',
        version: 4,
        tier: null,
        features: {},
      }),
    ]);
  });

  it('refuses a tier the catalog does not hold and writes nothing; a key replayed for another tier is reused', async () => {
    const user = await createUser();
    for (const request of [
      grantRequest(user.providerId, { tier: 'gold' }),
      grantRequest(user.providerId, { tier: 'gold', category: 'SERVER', guildId: snowflake() }),
    ]) {
      await expect(grantPremium(db(), request)).rejects.toMatchObject({
        kind: 'validation',
        code: 'UNKNOWN_TIER',
      });
    }
    expect(await UserPremium.count()).toBe(0);
    expect(await ServerPremium.count()).toBe(0);
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);

    const request = grantRequest(user.providerId, { tier: 'pro' });
    await grantPremium(db(), request);
    await expect(
      grantPremium(db(), { ...request, plan: { ...request.plan, tier: 'premium' } }),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await grantPremium(db(), request)).toMatchObject({ replayed: true, tier: 'pro' });
  });

  it("counts a buyer's guild purchase toward their status in its tier", async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    const pro = await grantPremium(
      db(),
      grantRequest(buyer.providerId, { category: 'SERVER', guildId, tier: 'pro' }),
    );
    expect(await getPremiumStatus(db(), buyer.providerId)).toEqual({
      isPremium: true,
      premiumExpiresAt: pro.expiresAt.toISOString(),
      tier: 'pro',
      features: PRO,
      tiers: [{ tier: 'pro', startsAt: expect.any(String), expiresAt: pro.expiresAt.toISOString() }],
    });

    await revokePremium(db(), revokeRequest({ grantId: pro.grantId }));
    expect(await getPremiumStatus(db(), buyer.providerId)).toMatchObject({
      isPremium: false,
      tier: null,
      tiers: [],
    });
  });

  it('gives the days of a write that names no tier (the code before tiers) to the default tier', async () => {
    const user = await createUser();
    await grantPremium(db(), grantRequest(user.providerId));
    await grantPremium(db(), grantRequest(user.providerId, { tier: 'pro' }));

    const [row] = await db().query<{ expires_at: Date }>(
      `UPDATE user_premiums SET expires_at = date_trunc('second', now()) + interval '10 days', version = version + 1
       WHERE user_id = $1 RETURNING expires_at`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );

    const ends = await tierEnds({ userId: user.id });
    expect(ends.premium).toEqual(row!.expires_at);
    expect(ends.pro!.getTime()).toBeLessThanOrEqual(Date.now());
    const [record] = await db().query<{ tier: string | null; tier_changes_at: Date | null }>(
      'SELECT tier, tier_changes_at FROM user_premiums WHERE user_id = $1',
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(record).toEqual({ tier: 'premium', tier_changes_at: null });
  });
});

describe('stacked tier days, as the bot sees them', () => {
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const get = (url: string, headers: Record<string, string> = bearer) =>
    getApp().app.inject({ method: 'GET', url, headers });

  it('names the tier and its features in the status route, the bot lookups and the snapshot', async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    await grantPremium(db(), grantRequest(buyer.providerId, { category: 'SERVER', guildId }));
    const pro = await grantPremium(
      db(),
      grantRequest(buyer.providerId, { category: 'SERVER', guildId, tier: 'pro' }),
    );
    const own = await grantPremium(db(), grantRequest(buyer.providerId, { tier: 'pro' }));

    expect((await get(`/api/bot/guilds/${guildId}/premium`)).json()).toEqual({
      guildId,
      isPremium: true,
      premiumExpiresAt: pro.expiresAt.toISOString(),
      tier: 'pro',
      features: PRO,
      slots: 1,
      version: 2,
    });
    expect((await get(`/api/bot/users/${buyer.providerId}/premium`)).json()).toMatchObject({
      tier: 'pro',
      features: PRO,
      version: 1,
    });
    const snapshot = (await get('/api/bot/premium?category=SERVER')).json() as { items: unknown[] };
    expect(snapshot.items).toEqual([
      expect.objectContaining({ guildId, tier: 'pro', features: PRO, version: 2 }),
    ]);
    const status = (await get(`/api/auth/user/${buyer.providerId}`, {})).json() as Record<string, unknown>;
    expect(status).toMatchObject({ isPremium: true, tier: 'pro', features: PRO });
    expect(status.tiers).toEqual([
      { tier: 'pro', startsAt: expect.any(String), expiresAt: expect.any(String) },
      { tier: 'premium', startsAt: expect.any(String), expiresAt: pro.expiresAt.toISOString() },
    ]);
    expect(Date.parse(status.premiumExpiresAt as string)).toBeGreaterThanOrEqual(own.expiresAt.getTime());
  });
});

describe('stacked tier days, through the stream', () => {
  const kit = useKit(() => getApp().core.config.eventsStream);
  const relay = useRelays();
  const relayed = () => pollUntil('the outbox to be relayed', async () => (await pendingRows(db())) === 0);

  it('brings every change of the running tier to the stream once, and a consumer applying by version converges', async () => {
    relay(getApp().core.config);
    const { consumer } = await kit.start({ consumer: 'a' });
    const buyer = await createUser();
    const guildId = snowflake();
    const guild = { guildId };
    const changes: string[] = [];
    const grant = async (tier?: string) =>
      changes.push(
        (await grantPremium(db(), grantRequest(buyer.providerId, { category: 'SERVER', guildId, tier })))
          .eventId,
      );

    await grant();
    const proGrant = await grantPremium(
      db(),
      grantRequest(buyer.providerId, { category: 'SERVER', guildId, tier: 'pro' }),
    );
    changes.push(proGrant.eventId);
    await relayed();
    await kit.drained();
    expect(consumer.tier(guild)).toBe('pro');
    expect(consumer.hasFeature(guild, 'music')).toBe(true);

    changes.push((await revokePremium(db(), revokeRequest({ grantId: proGrant.grantId }))).eventId);
    await relayed();
    await kit.drained();
    expect(consumer.tier(guild)).toBe('premium');
    expect(consumer.hasFeature(guild, 'music')).toBe(false);

    await grant('pro');
    await travel(30.001);
    await runExpiry();
    await relayed();
    await kit.drained();

    const entries = await readStream(kit.admin(), kit.stream());
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entries.map((entry) => [entry.type, entry.payload.version, entry.payload.tier])).toEqual([
      ['SERVER_PREMIUM_ADD', 1, 'premium'],
      ['SERVER_PREMIUM_UPDATE', 2, 'pro'],
      ['SERVER_PREMIUM_UPDATE', 3, 'premium'],
      ['SERVER_PREMIUM_UPDATE', 4, 'pro'],
      ['SERVER_PREMIUM_UPDATE', 5, 'premium'],
    ]);
    expect(ids.slice(0, 4)).toEqual(changes);
    const service = await findGuildPremium(db(), guildId);
    expect(consumer.record(guild)).toMatchObject({
      version: service.version,
      tier: service.tier,
      features: service.features,
      expiresAt: new Date(service.premiumExpiresAt!),
    });
    expect(consumer.tier(guild)).toBe('premium');
    expect(consumer.stats).toMatchObject({ handled: 5, duplicates: 0, outdated: 0 });
  });
});

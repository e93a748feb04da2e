import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { OutboxEvent } from '../../src/core/models';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { revokePremium } from '../../src/core/premium/revoke';
import { BatchSize } from '../../src/core/db/until-done';
import { expiryJob, expiryJobSizedBy } from '../../src/worker/jobs/expiry';
import { runExclusively } from '../../src/worker/scheduler';
import { useTestCore } from '../support/context';
import { seedPlan } from '../support/fixtures';
import { createUser, grantMonth } from '../support/outbox-stream';

const GUILD_ID = '223456789012345678';

describe('expiry job', () => {
  const core = useTestCore();
  const logger = pino({ level: 'silent' });
  const runExpiry = () => runExclusively(core(), expiryJob, logger);

  /** Moves a record's expiry into the past, as time passing would. */
  async function expire(where: { userId: number } | { guildId: string }): Promise<Date> {
    const [table, column, key] =
      'userId' in where
        ? ['user_premiums', 'user_id', where.userId]
        : ['server_premiums', 'guild_id', where.guildId];
    const [row] = await core().sequelize.query<{ expires_at: Date }>(
      `UPDATE ${table} SET expires_at = date_trunc('second', now()) - interval '1 minute'
       WHERE ${column} = $1 RETURNING expires_at`,
      { bind: [key], type: QueryTypes.SELECT },
    );
    return row!.expires_at;
  }

  async function expiryEvents(): Promise<PremiumEventPayload[]> {
    const rows = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    return rows.map((row) => row.payload).filter((payload) => payload.source === 'expiry');
  }

  it('announces each expired user and server premium once, with reason expired', async () => {
    const { sequelize } = core();
    const holder = await createUser();
    const buyer = await createUser();
    const active = await createUser();
    const userGrant = await grantMonth(sequelize, holder.providerId);
    const serverGrant = await grantMonth(sequelize, buyer.providerId, {
      category: 'SERVER',
      guildId: GUILD_ID,
    });
    await grantMonth(sequelize, active.providerId);
    const userExpiry = await expire({ userId: holder.id });
    const serverExpiry = await expire({ guildId: GUILD_ID });

    expect(await runExpiry()).toBe('ran');
    expect(await runExpiry()).toBe('ran');

    const events = await expiryEvents();
    expect(events).toEqual([
      {
        eventId: expect.any(String),
        type: 'USER_PREMIUM_REMOVE',
        occurredAt: expect.any(String),
        providerId: holder.providerId,
        guildId: null,
        category: 'USER',
        planType: null,
        durationDays: 0,
        slots: 1,
        expiresAt: userExpiry.toISOString(),
        version: userGrant.version + 1,
        orderId: null,
        source: 'expiry',
        tier: null,
        features: {},
        reason: 'expired',
      },
      expect.objectContaining({
        type: 'SERVER_PREMIUM_REMOVE',
        providerId: buyer.providerId,
        guildId: GUILD_ID,
        category: 'SERVER',
        expiresAt: serverExpiry.toISOString(),
        version: serverGrant.version + 1,
        source: 'expiry',
        reason: 'expired',
      }),
    ]);
  });

  it('announces a record again when it is extended and expires again', async () => {
    const { sequelize } = core();
    const user = await createUser();
    await grantMonth(sequelize, user.providerId);
    await expire({ userId: user.id });
    await runExpiry();
    const renewal = await grantMonth(sequelize, user.providerId);
    await runExpiry();
    expect(await expiryEvents()).toHaveLength(1);

    await expire({ userId: user.id });
    await runExpiry();
    const events = await expiryEvents();
    // Each expiry is a change: the first bumped version 1 to 2, the renewal made 3, the second expiry 4.
    expect(events.map((event) => event.version)).toEqual([renewal.version - 1, renewal.version + 1]);
  });

  it('leaves to a revoke that ended a premium its own REMOVE, but announces after a partial one', async () => {
    const { sequelize } = core();
    const ended = await createUser();
    await grantMonth(sequelize, ended.providerId);
    await revokePremium(sequelize, {
      target: { category: 'USER', providerId: ended.providerId },
      source: 'manual',
      actor: 'test',
      reason: 'abuse',
      idempotencyKey: randomUUID(),
    });
    const refunded = await createUser();
    const firstMonth = await grantMonth(sequelize, refunded.providerId);
    await grantMonth(sequelize, refunded.providerId);
    const refund = await revokePremium(sequelize, {
      target: { grantId: firstMonth.grantId },
      source: 'manual',
      actor: 'test',
      reason: 'refund',
      idempotencyKey: randomUUID(),
    });
    await runExpiry();
    expect(await expiryEvents()).toEqual([]);

    await expire({ userId: refunded.id });
    await runExpiry();
    expect(await expiryEvents()).toEqual([
      expect.objectContaining({
        providerId: refunded.providerId,
        version: refund.version + 1,
        reason: 'expired',
      }),
    ]);
  });

  // 1,200 expiries announced in batches: 3.5 s measured on the shared 2-core machine.
  it('gets through a backlog larger than a batch in one run', async () => {
    const { sequelize } = core();
    // 1,200 user premiums that all ran out a minute ago, as after a busy day's purchases.
    await sequelize.query(
      `WITH holders AS (
         INSERT INTO users (provider_id, username)
         SELECT (900000000000000000 + n)::text, 'holder' || n FROM generate_series(1, 1200) n RETURNING id)
       INSERT INTO user_premiums (user_id, expires_at, version) SELECT id, now() - interval '1 minute', 1 FROM holders`,
    );
    expect(await runExpiry()).toBe('ran');

    expect((await expiryEvents()).length).toBe(1200);
  }, 30_000);
  describe('batches sized by time', () => {
    /** `count` user premiums that ran out a minute ago; their holders' provider ids. */
    async function expiredRecords(count: number, first: number): Promise<string[]> {
      const rows = await core().sequelize.query<{ provider_id: string }>(
        `WITH holders AS (
           INSERT INTO users (provider_id, username)
           SELECT (910000000000000000 + n)::text, 'holder' || n FROM generate_series($1::int, $1::int + $2::int - 1) n
           RETURNING id, provider_id),
         records AS (
           INSERT INTO user_premiums (user_id, expires_at, version)
           SELECT id, now() - interval '1 minute', 1 FROM holders)
         SELECT provider_id FROM holders`,
        { bind: [first, count], type: QueryTypes.SELECT },
      );
      return rows.map((row) => row.provider_id);
    }

    /** The transactions (by xmin) that appended the expiry job's events, and the events. */
    async function expiryWrites(): Promise<{ transactions: number; events: PremiumEventPayload[] }> {
      const [row] = await core().sequelize.query<{ transactions: string }>(
        `SELECT count(DISTINCT xmin::text) AS transactions FROM outbox WHERE payload->>'source' = 'expiry'`,
        { type: QueryTypes.SELECT },
      );
      return { transactions: Number(row!.transactions), events: await expiryEvents() };
    }

    it('announces every expiry and tier change once when each batch overruns its target, in many small transactions', async () => {
      const { sequelize } = core();
      await sequelize.query(
        `INSERT INTO tiers (code, name, rank, features) VALUES ('pro', 'Pro', 2, '{"music": true}')`,
      );
      // Four users with 30 days of pro over 30 of premium, 31 days on: pro ended, premium runs.
      const stacked = await Promise.all([1, 2, 3, 4].map(() => createUser()));
      for (const user of stacked) {
        await grantMonth(sequelize, user.providerId);
        await grantMonth(sequelize, user.providerId, { plan: { ...seedPlan('Monthly'), tier: 'pro' } });
      }
      const back = `interval '31 days'`;
      await sequelize.query(`
        UPDATE user_premium_days SET ends_at = ends_at - ${back};
        UPDATE user_premiums SET expires_at = expires_at - ${back}, tier_changes_at = tier_changes_at - ${back},
          tier_days_written = tier_days_written + 1;
        UPDATE user_tier_expiries SET expires_at = expires_at - ${back};
        DELETE FROM outbox;`);
      const expired = await expiredRecords(30, 1);

      // A target no batch can meet: each halves the next, down to the floor of 2.
      const job = expiryJobSizedBy(new BatchSize({ initial: 8, min: 2, max: 8, targetMs: 0 }));
      expect(await runExclusively(core(), job, logger)).toBe('ran');

      const { transactions, events } = await expiryWrites();
      const removed = events.filter((event) => event.type === 'USER_PREMIUM_REMOVE');
      const updated = events.filter((event) => event.type === 'USER_PREMIUM_UPDATE');
      expect(removed.map((event) => event.providerId).sort()).toEqual([...expired].sort());
      expect(updated.map((event) => event.providerId).sort()).toEqual(
        stacked.map((user) => user.providerId).sort(),
      );
      expect(updated.every((event) => event.tier === 'premium')).toBe(true);
      expect(events).toHaveLength(34);
      // 8 + 4, then 2 at a time: 1 + 1 + 9 transactions wrote them.
      expect(transactions).toBe(11);

      // Nothing is left to announce, whatever the size.
      expect(await runExclusively(core(), expiryJob, logger)).toBe('ran');
      expect((await expiryEvents()).length).toBe(34);
    }, 30_000);

    it('doubles a full batch that took well under its target, up to the ceiling', async () => {
      const expired = await expiredRecords(30, 1001);
      const job = expiryJobSizedBy(new BatchSize({ initial: 2, min: 2, max: 16, targetMs: 60_000 }));
      expect(await runExclusively(core(), job, logger)).toBe('ran');

      const { transactions, events } = await expiryWrites();
      expect(events.map((event) => event.providerId).sort()).toEqual([...expired].sort());
      // 2 + 4 + 8 + 16.
      expect(transactions).toBe(4);
    }, 30_000);
  });
});

import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { OutboxEvent } from '../../src/core/models';
import { announceExpiringSoon } from '../../src/core/premium/expiry-reminders';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { revokePremium } from '../../src/core/premium/revoke';
import { expiryRemindersJob } from '../../src/worker/jobs/expiry-reminders';
import { runExclusively } from '../../src/worker/scheduler';
import { useTestCore } from '../support/context';
import { createUser, grantMonth } from '../support/outbox-stream';

const GUILD_ID = '323456789012345678';

describe('expiry reminders job (EXPIRY_REMINDER_DAYS=3)', () => {
  const core = useTestCore();
  const logger = pino({ level: 'silent' });
  const runReminders = () => runExclusively(core(), expiryRemindersJob, logger);

  /** Sets a record's expiry `days` from now, as time passing would bring it near. */
  async function expireIn(where: { userId: number } | { guildId: string }, days: number): Promise<Date> {
    const [table, column, key] =
      'userId' in where
        ? ['user_premiums', 'user_id', where.userId]
        : ['server_premiums', 'guild_id', where.guildId];
    const [row] = await core().sequelize.query<{ expires_at: Date }>(
      `UPDATE ${table} SET expires_at = date_trunc('second', now() + make_interval(secs => $2::float8 * 86400))
       WHERE ${column} = $1 RETURNING expires_at`,
      { bind: [key, days], type: QueryTypes.SELECT },
    );
    return row!.expires_at;
  }

  async function reminders(): Promise<PremiumEventPayload[]> {
    const rows = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    return rows.map((row) => row.payload).filter((payload) => payload.type.endsWith('_EXPIRING'));
  }

  it('reminds each user and guild premium once, EXPIRY_REMINDER_DAYS before its expiry', async () => {
    const { sequelize } = core();
    const [soon, buyer, later, expired] = [
      await createUser(),
      await createUser(),
      await createUser(),
      await createUser(),
    ];
    const userGrant = await grantMonth(sequelize, soon.providerId);
    const guildGrant = await grantMonth(sequelize, buyer.providerId, {
      category: 'SERVER',
      guildId: GUILD_ID,
    });
    await grantMonth(sequelize, later.providerId);
    await grantMonth(sequelize, expired.providerId);
    const userExpiry = await expireIn({ userId: soon.id }, 2);
    const guildExpiry = await expireIn({ guildId: GUILD_ID }, 3 - 1 / 24);
    await expireIn({ userId: later.id }, 4);
    await expireIn({ userId: expired.id }, -1);

    expect(await runReminders()).toBe('ran');
    expect(await runReminders()).toBe('ran');

    expect(await reminders()).toEqual([
      {
        eventId: expect.any(String),
        type: 'USER_PREMIUM_EXPIRING',
        occurredAt: expect.any(String),
        providerId: soon.providerId,
        guildId: null,
        category: 'USER',
        planType: null,
        durationDays: 0,
        slots: 1,
        expiresAt: userExpiry.toISOString(),
        version: userGrant.version,
        orderId: null,
        source: 'expiry',
        tier: 'premium',
        features: {},
      },
      expect.objectContaining({ type: 'SERVER_PREMIUM_EXPIRING', guildId: GUILD_ID }),
    ]);
    expect((await reminders())[1]).toMatchObject({
      providerId: buyer.providerId,
      category: 'SERVER',
      expiresAt: guildExpiry.toISOString(),
      version: guildGrant.version,
    });
  });

  it('reminds once when two workers run at the same moment, and once across restarts', async () => {
    const { sequelize } = core();
    const users = [];
    for (let i = 0; i < 20; i++) {
      const user = await createUser();
      await grantMonth(sequelize, user.providerId);
      await expireIn({ userId: user.id }, 1);
      users.push(user);
    }
    // Past the job's lock too: two transactions selecting at once skip each other's rows.
    const results = await Promise.all([
      sequelize.transaction((transaction) => announceExpiringSoon(transaction, 3, 1000)),
      sequelize.transaction((transaction) => announceExpiringSoon(transaction, 3, 1000)),
      runReminders(),
      runReminders(),
    ]);
    expect(results[0] + results[1]).toBeLessThanOrEqual(20);
    await runReminders();

    const reminded = (await reminders()).map((event) => event.providerId).sort();
    expect(reminded).toEqual(users.map((user) => user.providerId).sort());
  });

  it('reminds again for a new expiry: after an extension comes near, or a revoke brings it near', async () => {
    const { sequelize } = core();
    const user = await createUser();
    await grantMonth(sequelize, user.providerId);
    await expireIn({ userId: user.id }, 2);
    await runReminders();

    const renewal = await grantMonth(sequelize, user.providerId);
    await runReminders();
    expect(await reminders()).toHaveLength(1);

    const nearAgain = await expireIn({ userId: user.id }, 1);
    await runReminders();
    await runReminders();
    expect((await reminders()).map((event) => [event.expiresAt, event.version])).toEqual([
      [expect.any(String), renewal.version - 1],
      [nearAgain.toISOString(), renewal.version],
    ]);

    const other = await createUser();
    await grantMonth(sequelize, other.providerId);
    const refunded = await grantMonth(sequelize, other.providerId);
    await expireIn({ userId: other.id }, 32);
    await runReminders();
    const revoke = await revokePremium(sequelize, {
      target: { grantId: refunded.grantId },
      source: 'manual',
      actor: 'test',
      reason: 'refund',
      idempotencyKey: `refund:${refunded.grantId}`,
    });
    await runReminders();
    expect((await reminders()).filter((event) => event.providerId === other.providerId)).toEqual([
      expect.objectContaining({ expiresAt: revoke.expiresAt.toISOString(), version: revoke.version }),
    ]);
  });

  it('never reminds a premium that a revoke ended', async () => {
    const { sequelize } = core();
    const user = await createUser();
    await grantMonth(sequelize, user.providerId);
    await expireIn({ userId: user.id }, 2);
    await revokePremium(sequelize, {
      target: { category: 'USER', providerId: user.providerId },
      source: 'manual',
      actor: 'test',
      reason: 'abuse',
      idempotencyKey: `end:${user.id}`,
    });
    await runReminders();
    expect(await reminders()).toEqual([]);
  });

  it('does not remind a premium that a live subscription renews, and does once the buyer cancels', async () => {
    const { sequelize } = core();
    const subscriber = await createUser();
    await grantMonth(sequelize, subscriber.providerId);
    await expireIn({ userId: subscriber.id }, 2);
    await sequelize.query(
      `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
         target_key, plan_type, duration_days, amount_paise, status)
       VALUES ('sub_reminder', 'plan_monthly', $1, 'USER', $2, 'Monthly', 30, 19900, 'active')`,
      { bind: [subscriber.id, `user:${subscriber.providerId}`] },
    );

    await runReminders();
    expect(await reminders()).toEqual([]);

    // Cancelled at cycle end: the charge that would have renewed it will not come.
    await sequelize.query(`UPDATE subscriptions SET cancel_at_cycle_end = true`);
    await runReminders();
    expect(await reminders()).toEqual([
      expect.objectContaining({ type: 'USER_PREMIUM_EXPIRING', providerId: subscriber.providerId }),
    ]);
  });
});

import { QueryTypes } from 'sequelize';
import { Subscription } from '../../../src/core/models';
import type { SubscriptionStatus } from '../../../src/core/models';
import { aggregateKeyFor } from '../../../src/core/premium/outbox';
import { isRenewedBySubscription } from '../../../src/core/subscriptions/renewal';
import { renewedBySubscriptionSql, TARGET_KEY_SQL } from '../../../src/core/premium/sql';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';

const getCore = useTestCore();

describe('"a live subscription renews this record"', () => {
  async function subscription(
    userId: number,
    target: { guildId: string | null; providerId: string },
    status: SubscriptionStatus,
    cancelAtCycleEnd = false,
  ) {
    return Subscription.create({
      processorSubscriptionId: `sub_${snowflake()}`,
      processorPlanId: 'plan_Test',
      buyerUserId: userId,
      category: target.guildId ? 'SERVER' : 'USER',
      guildId: target.guildId,
      targetKey: aggregateKeyFor(target.guildId, target.providerId),
      planType: 'Monthly',
      durationDays: 30,
      amountPaise: 19900,
      status,
      cancelAtCycleEnd,
      startAt: null,
      shortUrl: null,
    });
  }

  it.each<[SubscriptionStatus, boolean, boolean]>([
    ['created', false, false],
    ['authenticated', false, true],
    ['active', false, true],
    ['active', true, false],
    ['pending', false, false],
    ['halted', false, false],
    ['cancelled', false, false],
  ])('a %s subscription (cancel at cycle end: %s) renews: %s', async (status, cancelAtCycleEnd, renews) => {
    const user = await createUser();
    await subscription(user.id, { guildId: null, providerId: user.providerId }, status, cancelAtCycleEnd);
    expect(await isRenewedBySubscription(getCore().sequelize, `user:${user.providerId}`)).toBe(renews);
  });

  it('plugs into a query over the premium records of both categories', async () => {
    const renewedUser = await createUser();
    const lapsingUser = await createUser();
    const guildId = snowflake();
    const expiry = new Date(Date.now() + 2 * DAY_MS);
    for (const user of [renewedUser, lapsingUser]) {
      await getCore().sequelize.query(
        'INSERT INTO user_premiums (user_id, expires_at, version) VALUES ($1, $2, 1)',
        {
          bind: [user.id, expiry],
        },
      );
    }
    await getCore().sequelize.query(
      'INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version) VALUES ($1, $2, $3, 1)',
      { bind: [guildId, lapsingUser.id, expiry] },
    );
    await subscription(renewedUser.id, { guildId: null, providerId: renewedUser.providerId }, 'active');
    await subscription(lapsingUser.id, { guildId, providerId: lapsingUser.providerId }, 'active');

    const users = await getCore().sequelize.query<{ provider_id: string }>(
      `SELECT u.provider_id FROM user_premiums r JOIN users u ON u.id = r.user_id
       WHERE NOT ${renewedBySubscriptionSql(TARGET_KEY_SQL.USER('u'))}`,
      { type: QueryTypes.SELECT },
    );
    expect(users).toEqual([{ provider_id: lapsingUser.providerId }]);
    const guilds = await getCore().sequelize.query(
      `SELECT r.guild_id FROM server_premiums r WHERE NOT ${renewedBySubscriptionSql(TARGET_KEY_SQL.SERVER('r'))}`,
      { type: QueryTypes.SELECT },
    );
    expect(guilds).toEqual([]);
  });
});

import { QueryTypes } from 'sequelize';
import { addTier } from '../../src/core/catalog';
import type { User } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import { announceExpiries } from '../../src/core/premium/expiry';
import { syncGuildRoles, syncUserNow, GuildMembers } from '../../src/core/roles';
import { createUser, grantRequest } from '../support/fixtures';
import { deliverDispute, deliverRefund, paidMonthlyOrder, usePaymentsApp } from '../support/payments-app';
import {
  GUILD,
  queuedSync,
  ROLE_MEMBER,
  ROLE_PREMIUM,
  ROLE_PRO,
  ROLES_ENV,
  rolesOf,
  useGuild,
  useRoleWorker,
} from '../support/roles';
import { pollUntil } from '../support/wait';

// Each test waits for the worker's relay and drain through real HTTP; the hundred changes take seconds
// at the sandbox's enforced rate limits.
jest.setTimeout(60_000);

const getApp = usePaymentsApp(ROLES_ENV);
const app = () => getApp();
const sandbox = () => app().sandbox;
useGuild(sandbox);
const startWorker = useRoleWorker(() => app().core);

const sorted = (...roles: string[]) => [...roles].sort();

async function member(): Promise<User> {
  const user = await createUser();
  sandbox().discord.guilds.join(GUILD, user.providerId, [ROLE_MEMBER]);
  return user;
}

/** Waits until the member holds exactly `roles`. */
const rolesBecome = (user: User, roles: string[]) =>
  pollUntil(`${user.providerId}'s roles to be ${roles.join(',')}`, () => {
    const now = rolesOf(sandbox(), user);
    return JSON.stringify(now) === JSON.stringify(sorted(...roles)) && now;
  });

/** The worker deletes a sync after Discord answered, so the queue empties a moment after the role shows. */
const queueEmpties = (user: User) =>
  pollUntil('the queue emptied', async () => (await queuedSync(app().core.sequelize, user)) === undefined);

describe('roles follow premium through the worker', () => {
  beforeEach(() => startWorker());

  it('gives a buyer who pays the role of their tier, with an audit-log reason, and leaves their other roles', async () => {
    const buyer = await member();

    await paidMonthlyOrder(app(), buyer);

    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);
    expect(sandbox().discord.guilds.audit()).toEqual([
      expect.objectContaining({
        userId: buyer.providerId,
        roleId: ROLE_PREMIUM,
        action: 'add',
        reason: 'premium: running tier premium',
      }),
    ]);
    await queueEmpties(buyer);
  });

  it('swaps the role when an upgrade makes another tier run', async () => {
    const buyer = await member();
    await paidMonthlyOrder(app(), buyer);
    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);
    await addTier(app().core.sequelize, { code: 'pro', name: 'Pro', rank: 2 });

    await grantPremium(app().core.sequelize, grantRequest(buyer.providerId, { tier: 'pro' }));

    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PRO]);
  });

  it('takes the role back at a refund', async () => {
    const buyer = await member();
    const { orderId } = await paidMonthlyOrder(app(), buyer);
    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);

    expect((await deliverRefund(app(), orderId)).status).toBe(200);

    await rolesBecome(buyer, [ROLE_MEMBER]);
  });

  it('takes the role back at a chargeback, and a lost dispute gives nothing back', async () => {
    const buyer = await member();
    const { orderId } = await paidMonthlyOrder(app(), buyer);
    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);

    expect((await deliverDispute(app(), orderId, 'created')).status).toBe(200);
    await rolesBecome(buyer, [ROLE_MEMBER]);
    expect((await deliverDispute(app(), orderId, 'lost')).status).toBe(200);

    await rolesBecome(buyer, [ROLE_MEMBER]);
    await queueEmpties(buyer);
  });

  it('takes the role back when premium expires', async () => {
    const { sequelize } = app().core;
    const buyer = await member();
    await paidMonthlyOrder(app(), buyer);
    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);

    // As time passing would: the record, its tier's days and the user's mirror of them run out.
    for (const [table, column] of [
      ['user_premiums', 'user_id'],
      ['user_tier_expiries', 'user_id'],
      ['users', 'id'],
    ]) {
      const expires = table === 'users' ? 'premium_expires_at' : 'expires_at';
      await sequelize.query(
        `UPDATE ${table} SET ${expires} = now() - interval '1 minute' WHERE ${column} = $1`,
        {
          bind: [buyer.id],
        },
      );
    }
    await sequelize.transaction((transaction) => announceExpiries(transaction, 100));

    await rolesBecome(buyer, [ROLE_MEMBER]);
  });

  it('skips a buyer who is not in the guild, and gives the role at the drift sync once they joined', async () => {
    const { sequelize, config } = app().core;
    const buyer = await createUser();
    await paidMonthlyOrder(app(), buyer);

    const skipped = await pollUntil('the buyer set aside', async () => {
      const row = await queuedSync(sequelize, buyer);
      return row?.skipped_at && row;
    });
    expect(skipped.last_error).toMatch(/not a member of the guild/);
    expect(rolesOf(sandbox(), buyer)).toBeNull();

    sandbox().discord.guilds.join(GUILD, buyer.providerId);
    const guild = GuildMembers.of(config.roles!, config.discord.apiUrl, config.providerTimeoutMs);
    const report = await syncGuildRoles(sequelize, config.roles!, guild, { maxRevokesPerHour: null });

    expect(report).toMatchObject({ outcome: 'synced', members: 1, added: 1, removed: 0 });
    expect(rolesOf(sandbox(), buyer)).toEqual([ROLE_PREMIUM]);
    expect(await queuedSync(sequelize, buyer)).toBeUndefined();
  });

  it('gives the role to one user on `sync --user` after they joined', async () => {
    const { sequelize, config } = app().core;
    const buyer = await createUser();
    await paidMonthlyOrder(app(), buyer);
    await pollUntil('the buyer set aside', async () => (await queuedSync(sequelize, buyer))?.skipped_at);
    sandbox().discord.guilds.join(GUILD, buyer.providerId);

    const guild = GuildMembers.of(config.roles!, config.discord.apiUrl, config.providerTimeoutMs);
    const sync = await syncUserNow(sequelize, config.roles!, guild, buyer.providerId);

    expect(sync).toMatchObject({ outcome: 'changed', tier: 'premium', gave: [ROLE_PREMIUM] });
    expect(rolesOf(sandbox(), buyer)).toEqual([ROLE_PREMIUM]);
    expect(await queuedSync(sequelize, buyer)).toBeUndefined();
  });
});

describe("Discord's refusals delay a role change and never lose it", () => {
  beforeEach(() => startWorker());

  it("waits a 429's retry_after, sending nothing meanwhile", async () => {
    const buyer = await member();
    sandbox().discord.guilds.rateLimitNext(1);

    await paidMonthlyOrder(app(), buyer);

    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);
    expect(sandbox().discord.guilds.violations()).toBe(0);
  });

  it('pauses every route on a global 429', async () => {
    const buyer = await member();
    sandbox().discord.guilds.rateLimitNext(1, { global: true });

    await paidMonthlyOrder(app(), buyer);

    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);
    expect(sandbox().discord.guilds.violations()).toBe(0);
  });

  it('keeps the change queued with its error while Discord answers 5xx, and makes it once Discord is back', async () => {
    const { sequelize } = app().core;
    const buyer = await member();
    sandbox().faults.set('discord.memberRoles', { status: 502 });

    await paidMonthlyOrder(app(), buyer);

    const failing = await pollUntil('a failed attempt recorded', async () => {
      const row = await queuedSync(sequelize, buyer);
      return row && row.attempts > 0 && row;
    });
    expect(failing.last_error).toMatch(/502/);
    expect(rolesOf(sandbox(), buyer)).toEqual([ROLE_MEMBER]);

    sandbox().faults.set('discord.memberRoles', null);
    await rolesBecome(buyer, [ROLE_MEMBER, ROLE_PREMIUM]);
    await queueEmpties(buyer);
  });

  it("makes a hundred changes at once within the guild's enforced limits", async () => {
    sandbox().discord.guilds.setRateLimits({
      route: { limit: 5, windowMs: 250 },
      global: { limit: 50, windowMs: 1000 },
    });
    const buyers = await Promise.all(Array.from({ length: 100 }, () => member()));

    for (const buyer of buyers) await grantPremium(app().core.sequelize, grantRequest(buyer.providerId));

    await pollUntil(
      'every buyer holding the premium role',
      () => buyers.every((buyer) => rolesOf(sandbox(), buyer)?.includes(ROLE_PREMIUM)),
      { timeoutMs: 50_000 },
    );
    expect(sandbox().discord.guilds.violations()).toBe(0);
    // The last syncs are deleted a moment after Discord answered them, as in queueEmpties.
    await pollUntil('the queue emptied', async () => {
      const [row] = await app().core.sequelize.query<{ queued: number }>(
        "SELECT count(*)::int AS queued FROM jobs WHERE kind = 'role_sync' AND state <> 'done'",
        { type: QueryTypes.SELECT },
      );
      return row?.queued === 0;
    });
  });
});

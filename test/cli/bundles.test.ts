import { OutboxEvent, PremiumGrant, ServerPremium } from '../../src/core/models';
import { useTestCore } from '../support/context';
import { createUser, DAY_MS, snowflake } from '../support/fixtures';
import { transferAsBefore } from '../support/bundles';
import { json, premium } from '../support/cli';

// Runs the built CLI as child processes.
jest.setTimeout(60_000);

const getCore = useTestCore();

/** A 30-day bundle of two slots of the default tier, as a paid bundle order leaves it. */
async function bundleOf(buyerUserId: number): Promise<number> {
  const [rows] = (await getCore().sequelize.query(
    `INSERT INTO bundles (buyer_user_id, plan_code, tier, slots, days, ends_at)
       VALUES (${buyerUserId}, 'Duo', 'premium', 2, 30, now() + interval '30 days') RETURNING id`,
  )) as [{ id: string }[], unknown];
  return Number(rows[0]!.id);
}

describe('premium bundles', () => {
  it('lists, binds and unbinds with a reason, as JSON; the bot is told each time', async () => {
    const buyer = await createUser();
    const bundleId = await bundleOf(buyer.id);
    const guildId = snowflake();

    const bound = await premium([
      'bundles',
      'bind',
      String(bundleId),
      guildId,
      '--reason',
      'support ticket 12',
      '--json',
    ]);
    expect(bound.code).toBe(0);
    const binding = json<{ guildId: string; days: number; expiresAt: string }>(bound);
    expect(binding).toMatchObject({ bundleId, guildId, days: 30 });
    const record = await ServerPremium.findOne({ where: { guildId } });
    expect(record!.expiresAt!.toISOString()).toBe(binding.expiresAt);
    expect(Math.abs(record!.expiresAt!.getTime() - Date.now() - 30 * DAY_MS)).toBeLessThan(60_000);

    const listed = json<{ bundles: { bundleId: number; slots: number; guilds: { guildId: string }[] }[] }>(
      await premium(['bundles', 'list', '--user', buyer.providerId, '--json']),
    );
    expect(listed.bundles).toEqual([
      expect.objectContaining({ bundleId, slots: 2, guilds: [expect.objectContaining({ guildId })] }),
    ]);

    const unbound = await premium([
      'bundles',
      'unbind',
      String(bundleId),
      guildId,
      '--reason',
      'moved by support',
      '--yes',
      '--json',
    ]);
    expect(unbound.code).toBe(0);
    expect(json(unbound)).toMatchObject({ bundleId, guildId, days: 30 });
    expect((await ServerPremium.findOne({ where: { guildId } }))!.expiresAt!.getTime()).toBeLessThanOrEqual(
      Date.now(),
    );
    const events = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    expect(events.map((event) => [event.type, event.payload.source])).toEqual([
      ['SERVER_PREMIUM_ADD', 'bundle'],
      ['SERVER_PREMIUM_REMOVE', 'bundle'],
    ]);
    const ledger = await PremiumGrant.findAll({ order: [['id', 'ASC']] });
    expect(ledger.map((row) => [row.kind, row.reason])).toEqual([
      ['grant', 'support ticket 12'],
      ['revoke', 'moved by support'],
    ]);
  });

  it('refuses a bind past the slots with NO_FREE_SLOT and writes nothing', async () => {
    const buyer = await createUser();
    const bundleId = await bundleOf(buyer.id);
    for (const guildId of [snowflake(), snowflake()]) {
      expect((await premium(['bundles', 'bind', String(bundleId), guildId, '--reason', 'r'])).code).toBe(0);
    }
    const third = await premium([
      'bundles',
      'bind',
      String(bundleId),
      snowflake(),
      '--reason',
      'r',
      '--json',
    ]);
    expect(third.code).not.toBe(0);
    expect(third.stdout + third.stderr).toContain('NO_FREE_SLOT');
    expect(await OutboxEvent.count()).toBe(2);
  });

  it('refuses to transfer a bound guild’s bundle days (BUNDLE_DAYS) and names the unbind and the bind', async () => {
    const buyer = await createUser();
    const bundleId = await bundleOf(buyer.id);
    const [from, to] = [snowflake(), snowflake()];
    expect((await premium(['bundles', 'bind', String(bundleId), from, '--reason', 'r'])).code).toBe(0);

    const run = await premium(['transfer', '--from', from, '--to', to, '--reason', 'ticket', '--yes']);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `premium bundles unbind ${bundleId} ${from} --reason …, then premium bundles bind ${bundleId} ${to}`,
    );
    expect(run.stderr).toMatch(/\(BUNDLE_DAYS\)\n$/);
    expect(await ServerPremium.count({ where: { guildId: to } })).toBe(0);
    expect(await OutboxEvent.count()).toBe(1);
  });

  it('reclaims bundle days a transfer moved off an unbound guild before they stayed with their slot', async () => {
    const buyer = await createUser();
    const bundleId = await bundleOf(buyer.id);
    const [from, to] = [snowflake(), snowflake()];
    expect((await premium(['bundles', 'bind', String(bundleId), from, '--reason', 'r'])).code).toBe(0);
    // What the release before wrote: the days transferred to another guild, then an unbind that took nothing.
    await transferAsBefore(getCore().sequelize, buyer, from, to);
    await getCore().sequelize.query('UPDATE bundle_bindings SET unbound_at = now() WHERE bundle_id = $1', {
      bind: [bundleId],
    });
    const reclaim = ['bundles', 'reclaim', '--reason', 'moved by a transfer'];

    expect((await premium(reclaim)).code).toBe(2);
    expect((await ServerPremium.findOne({ where: { guildId: to } }))!.expiresAt.getTime()).toBeGreaterThan(
      Date.now(),
    );

    const run = await premium([...reclaim, '--yes', '--json']);
    expect(run.code).toBe(0);
    const { reclaimed } = json<{ reclaimed: { guildId: string; change: { days: number } }[] }>(run);
    expect(reclaimed).toEqual([
      expect.objectContaining({
        bundleId,
        boundGuildId: from,
        guildId: to,
        change: expect.objectContaining({ days: -30 }),
      }),
    ]);
    expect(
      (await ServerPremium.findOne({ where: { guildId: to } }))!.expiresAt.getTime(),
    ).toBeLessThanOrEqual(Date.now());
    const events = await OutboxEvent.findAll({
      where: { aggregateKey: `guild:${to}` },
      order: [['id', 'ASC']],
    });
    expect(events.map((event) => [event.type, event.payload.source])).toEqual([
      ['SERVER_PREMIUM_ADD', 'transfer'],
      ['SERVER_PREMIUM_REMOVE', 'bundle'],
    ]);

    const again = await premium([...reclaim, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^No bundle days were moved off an unbound guild: nothing to reclaim\./);
  });
});

import { QueryTypes } from 'sequelize';
import type { RoleSettings } from '../../../src/core/config';
import { DiscordRest, GuildMembers, syncGuildRoles } from '../../../src/core/roles';
import { SANDBOX_BOT_TOKEN } from '../../../src/sandbox';
import { snowflake } from '../../support/fixtures';
import { GUILD, ROLE_MEMBER, ROLE_PREMIUM, ROLE_PRO, useGuildTest } from '../../support/roles';

const SETTINGS: RoleSettings = {
  botToken: SANDBOX_BOT_TOKEN,
  guildId: GUILD,
  tierRoles: { premium: ROLE_PREMIUM, pro: ROLE_PRO },
};

const { core, sandbox, member } = useGuildTest();

const guilds = () => sandbox().discord.guilds;
const guild = () =>
  new GuildMembers(
    new DiscordRest({ apiUrl: sandbox().discordApiUrl, botToken: SANDBOX_BOT_TOKEN, timeoutMs: 5000 }),
    GUILD,
  );
const sync = (maxRevokesPerHour: number | null = null) =>
  syncGuildRoles(core().sequelize, SETTINGS, guild(), { maxRevokesPerHour });

describe('the drift sync of roles', () => {
  it('gives missing roles and takes stale ones, across pages of members, leaving other roles alone', async () => {
    const missing = await member([ROLE_MEMBER], { premium: true });
    const holding = await member([ROLE_PREMIUM], { premium: true });
    const stale = await member([ROLE_MEMBER, ROLE_PRO]);
    // Past one page of a thousand: the members after it are read too.
    for (let i = 0; i < 1000; i++) guilds().join(GUILD, snowflake());
    const strangerWithRole = snowflake();
    guilds().join(GUILD, strangerWithRole, [ROLE_PREMIUM]);

    const report = await sync();

    expect(report).toMatchObject({ outcome: 'synced', members: 1004, added: 1, removed: 2, failed: [] });
    expect(guilds().memberRoles(GUILD, missing)).toEqual([ROLE_PREMIUM, ROLE_MEMBER].sort());
    expect(guilds().memberRoles(GUILD, holding)).toEqual([ROLE_PREMIUM]);
    expect(guilds().memberRoles(GUILD, stale)).toEqual([ROLE_MEMBER]);
    expect(guilds().memberRoles(GUILD, strangerWithRole)).toEqual([]);
    expect(
      guilds()
        .audit()
        .map((entry) => entry.reason),
    ).toEqual([
      'premium: running tier premium',
      'premium: no premium running',
      'premium: no premium running',
    ]);
  });

  it('takes no role when it would take more than the guard allows, gives the missing ones, and says so', async () => {
    const missing = await member([], { premium: true });
    const stale = [await member([ROLE_PREMIUM]), await member([ROLE_PRO])];

    const report = await sync(1);

    expect(report).toMatchObject({
      outcome: 'stopped-at-guard',
      added: 1,
      removed: 0,
      staleRoles: 2,
      guardLimit: 1,
    });
    expect(guilds().memberRoles(GUILD, missing)).toEqual([ROLE_PREMIUM]);
    expect(stale.map((id) => guilds().memberRoles(GUILD, id))).toEqual([[ROLE_PREMIUM], [ROLE_PRO]]);
    const [run] = await core().sequelize.query<{ outcome: string }>(
      'SELECT outcome FROM role_sync_runs ORDER BY id DESC LIMIT 1',
      { type: QueryTypes.SELECT },
    );
    expect(run?.outcome).toBe('stopped-at-guard');
  });

  it('records a run that could not read the members as failed, changing nothing', async () => {
    await member([ROLE_PRO]);
    sandbox().faults.set('discord.guildMembers', {
      status: 403,
      body: { message: 'Missing Access', code: 50001 },
    });

    const report = await sync();
    sandbox().faults.clear();

    expect(report).toMatchObject({ outcome: 'failed', added: 0, removed: 0 });
    expect(report.error).toMatch(/403 Missing Access \(50001\)/);
    expect(guilds().audit()).toEqual([]);
  });
});

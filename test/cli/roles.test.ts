import { QueryTypes } from 'sequelize';
import { json, premium } from '../support/cli';
import { createUser } from '../support/fixtures';
import { GUILD, ROLE_MEMBER, ROLE_PREMIUM, ROLE_PRO, ROLES_ENV, useGuildTest } from '../support/roles';

// Each command is a process of its own.
jest.setTimeout(30_000);

const { core, sandbox, member } = useGuildTest();

const roles = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  premium(['roles', ...args], { ...ROLES_ENV, DISCORD_API_URL: sandbox().discordApiUrl, ...env });
const rolesOf = (providerId: string) => sandbox().discord.guilds.memberRoles(GUILD, providerId);

describe('premium roles status', () => {
  it('says roles are off without their settings', async () => {
    const run = await premium(['roles', 'status', '--json']);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ enabled: false, guildId: null, tierRoles: {}, lastSync: null });
  });

  it('shows the mapping, the queue with its failing and set-aside users, and the last drift sync', async () => {
    const failing = await createUser();
    const away = await createUser();
    await core().sequelize.query(
      `INSERT INTO jobs (kind, dedupe_key, payload, state, attempts, last_error, run_at, finished_at) VALUES
         ('role_sync', $1, '{}', 'queued', 3, 'Discord answered 403 Missing Permissions (50013)',
          now() + interval '1 minute', NULL),
         ('role_sync', $2, '{}', 'dead', 1, 'not a member of the guild (10007 Unknown Member)', now(), now())`,
      { bind: [failing.providerId, away.providerId], type: QueryTypes.INSERT },
    );
    expect((await roles(['sync'])).code).toBe(0);

    const run = await roles(['status', '--json']);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({
      enabled: true,
      guildId: GUILD,
      tierRoles: { premium: ROLE_PREMIUM, pro: ROLE_PRO },
      queue: {
        due: 0,
        failing: 1,
        notMembers: 1,
        problems: [
          { providerId: failing.providerId, attempts: 3, lastError: expect.stringMatching(/50013/) },
          { providerId: away.providerId, notMemberSince: expect.any(String) },
        ],
      },
      lastSync: { outcome: 'synced', result: { members: 0, added: 0, removed: 0 } },
    });
    const text = await roles(['status']);
    expect(text.stdout).toContain(`premium=${ROLE_PREMIUM}, pro=${ROLE_PRO}`);
    expect(text.stdout).toContain('Missing Permissions');
  });
});

describe('premium roles sync', () => {
  it('gives missing roles and takes stale ones across the guild', async () => {
    const missing = await member([ROLE_MEMBER], { premium: true });
    const stale = await member([ROLE_PRO]);

    const run = await roles(['sync', '--json']);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ sync: { outcome: 'synced', members: 2, added: 1, removed: 1 } });
    expect(rolesOf(missing)).toEqual([ROLE_PREMIUM, ROLE_MEMBER].sort());
    expect(rolesOf(stale)).toEqual([]);
  });

  it('stops at the revocation guard, taking nothing, and exits 1', async () => {
    await member([ROLE_PREMIUM]);
    await member([ROLE_PRO]);

    const run = await roles(['sync', '--json'], { MAX_REVOKES_PER_HOUR: '1' });

    expect(run.code).toBe(1);
    expect(json(run)).toMatchObject({ sync: { outcome: 'stopped-at-guard', removed: 0, staleRoles: 2 } });
    expect(run.stderr).toMatch(/ROLES_GUARD/);
  });

  it('syncs one user with --user, and refuses when roles are off', async () => {
    const buyer = await member([], { premium: true });

    const run = await roles(['sync', '--user', buyer, '--json']);
    const off = await premium(['roles', 'sync']);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({
      user: { providerId: buyer, outcome: 'changed', gave: [ROLE_PREMIUM] },
    });
    expect(rolesOf(buyer)).toEqual([ROLE_PREMIUM]);
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(
      /roles are off: set DISCORD_BOT_TOKEN, ROLE_GUILD_ID and TIER_ROLES .*\(ROLES_OFF\)/,
    );
  });
});

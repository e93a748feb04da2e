import { json, premium } from '../support/cli';
import { GUILD, ROLES_ENV, useGuildTest } from '../support/roles';

// Each command is a process of its own.
jest.setTimeout(30_000);

const { sandbox } = useGuildTest();

/** `premium settings list --json`'s roles, roles on through the environment, against the sandbox's Discord. */
async function rolesStatus() {
  const run = await premium(['settings', 'list', '--json'], {
    ...ROLES_ENV,
    DISCORD_API_URL: sandbox().discordApiUrl,
  });
  expect(run.code).toBe(0);
  return json<{ status: { roles: object } }>(run).status.roles;
}

describe('premium settings list: whether the bot can manage the tier roles', () => {
  it('says it can with Manage Roles and its role above the tier roles', async () => {
    expect(await rolesStatus()).toMatchObject({
      on: true,
      guildId: GUILD,
      bot: { canManage: true, problems: [] },
    });
  });

  it('names a tier role above the bot, and a missing Manage Roles', async () => {
    sandbox().discord.guilds.setBotRole(GUILD, { position: 2, manageRoles: false });

    expect(await rolesStatus()).toMatchObject({
      bot: {
        canManage: false,
        problems: [
          'the bot lacks the Manage Roles permission',
          "the bot's highest role is not above Pro (of pro): drag it higher",
        ],
      },
    });
  });
});

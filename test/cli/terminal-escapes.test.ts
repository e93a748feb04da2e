import { UserGuild } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import { useTestCore } from '../support/context';
import { createUser, grantRequest, snowflake } from '../support/fixtures';
import { json, premium, premiumAtTerminal } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();

/** Sets the terminal's title, then clears the screen: what a hostile Discord name can hold. */
const HOSTILE_NAME = 'Evil\x1b]0;pwned\x07\x1b[2J';
const SHOWN_NAME = 'Evil\\x1b]0;pwned\\x07\\x1b[2J';
/** A right-to-left override and a tab: the rest of the line would show reversed, the columns shifted. */
const HOSTILE_GUILD = 'Fan\u202eClub\tx';
const SHOWN_GUILD = 'Fan\\u202eClub\\x09x';

/** Every character a terminal would act on rather than show, but the newline. */
function unprintable(text: string): string[] {
  return [...text].filter((char) => char !== '\n' && /[\p{Cc}\p{Bidi_Control}]/u.test(char));
}

describe('user-provided text in human output', () => {
  it('users show prints a name and a guild name with their control characters escaped, columns aligned', async () => {
    const user = await createUser({ username: HOSTILE_NAME });
    const guildId = snowflake();
    await UserGuild.create({ userId: user.id, guildId, name: HOSTILE_GUILD, owner: true, permissions: '0' });

    const run = await premium(['users', 'show', user.providerId]);

    expect(run.code).toBe(0);
    expect(unprintable(run.stdout)).toEqual([]);
    expect(run.stdout).toContain(`User          ${SHOWN_NAME} (${user.providerId})\n`);
    const lines = run.stdout.split('\n');
    const header = lines[lines.indexOf('Guilds they manage (as of their last sign-in)') + 1]!;
    const row = lines.find((line) => line.startsWith(guildId))!;
    expect(row).toContain(SHOWN_GUILD);
    expect(row.indexOf('yes')).toBe(header.indexOf('OWNER'));
  });

  it('users find does the same in its table, and --json still gives the name as it is', async () => {
    const user = await createUser({ username: HOSTILE_NAME });

    const text = await premium(['users', 'find', 'Evil']);
    const asJson = await premium(['users', 'show', user.providerId, '--json']);

    expect(unprintable(text.stdout)).toEqual([]);
    expect(text.stdout).toContain(SHOWN_NAME);
    expect(json<{ user: { username: string } }>(asJson).user.username).toBe(HOSTILE_NAME);
  });

  it('the question before a revoke shows the name escaped', async () => {
    const user = await createUser({ username: HOSTILE_NAME });
    await grantPremium(getCore().sequelize, grantRequest(user.providerId));

    const run = await premiumAtTerminal(['revoke', '--user', user.providerId, '--reason', 'x'], {
      input: 'no\n',
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`End the USER premium of ${SHOWN_NAME} (${user.providerId})`);
    expect(run.stdout).not.toContain('\x1b]0;pwned');
  });

  it('an error on stderr that echoes a value shows it escaped', async () => {
    const run = await premium(['users', 'find', 'x'], { CORS_ORIGINS: '\x1b]0;pwned\x07' });

    expect(run.code).toBe(1);
    expect(unprintable(run.stderr)).toEqual([]);
    expect(run.stderr).toContain('CORS_ORIGINS: "\\x1b]0;pwned\\x07" is not an origin');
  });
});

import { User, UserGuild } from '../../../src/core/models';
import { recordSignIn } from '../../../src/core/identity/sign-in';
import { useTestCore } from '../../support/context';
import { snowflake } from '../../support/fixtures';

const getCore = useTestCore();

describe('recordSignIn', () => {
  it('lets concurrent sign-ins of a new account create one user with one set of guilds', async () => {
    const account = { id: snowflake(), username: 'racer', avatar: null };
    const guilds = [{ id: snowflake(), name: 'Raced', icon: null, owner: true, permissions: '0' }];

    const results = await Promise.all(
      Array.from({ length: 5 }, () => recordSignIn(getCore().sequelize, account, guilds)),
    );

    expect(new Set(results.map((user) => user.providerId))).toEqual(new Set([account.id]));
    expect(await User.count({ where: { providerId: account.id } })).toBe(1);
    expect((await UserGuild.findAll()).map((guild) => guild.guildId)).toEqual([guilds[0]!.id]);
  });
});

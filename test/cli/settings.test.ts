import { QueryTypes } from 'sequelize';
import { json, premium } from '../support/cli';
import { useTestCore } from '../support/context';

// Each command is a process of its own.
jest.setTimeout(30_000);

const core = useTestCore();

const stored = () =>
  core().sequelize.query<{ name: string; value: string; updated_by: string }>(
    'SELECT name, value, updated_by FROM settings ORDER BY name',
    { type: QueryTypes.SELECT },
  );

describe('premium settings', () => {
  it('sets, lists and unsets a setting, with an audit row each time', async () => {
    const set = await premium([
      'settings',
      'set',
      'STORE_NAME',
      'Melody Premium',
      '--actor',
      'asha',
      '--json',
    ]);

    expect(set.code).toBe(0);
    expect(json(set)).toEqual({
      changed: [{ name: 'STORE_NAME', oldValue: null, newValue: 'Melody Premium' }],
    });
    expect(await stored()).toEqual([{ name: 'STORE_NAME', value: 'Melody Premium', updated_by: 'cli:asha' }]);
    const list = json<{ settings: { name: string }[]; status: object }>(
      await premium(['settings', 'list', '--json']),
    );
    expect(list.settings).toContainEqual(
      expect.objectContaining({
        name: 'STORE_NAME',
        value: 'Melody Premium',
        source: 'settings',
        readOnly: false,
      }),
    );
    expect(list.settings).toContainEqual(
      expect.objectContaining({ name: 'GST_SAC', value: '998315', source: 'default' }),
    );
    expect(list.status).toMatchObject({ gst: { on: false }, roles: { on: false }, notices: { on: false } });

    const unset = await premium(['settings', 'unset', 'STORE_NAME', '--json']);
    expect(json(unset)).toEqual({
      changed: [{ name: 'STORE_NAME', oldValue: 'Melody Premium', newValue: null }],
    });
    expect(await stored()).toEqual([]);
    const audit = await core().sequelize.query(
      'SELECT name, old_value, new_value FROM setting_changes ORDER BY id',
      {
        type: QueryTypes.SELECT,
      },
    );
    expect(audit).toHaveLength(2);
  });

  it('sets the roles as a pair: one alone breaks the rule that roles need both', async () => {
    const env = { DISCORD_BOT_TOKEN: 'sandbox-bot-token' };
    const alone = await premium(['settings', 'set', 'ROLE_GUILD_ID', '700000000000000001'], env);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('TIER_ROLES: is required with DISCORD_BOT_TOKEN and ROLE_GUILD_ID');

    const pair = await premium(
      [
        'settings',
        'set',
        'ROLE_GUILD_ID',
        '700000000000000001',
        'TIER_ROLES',
        'premium=700000000000000011',
        '--json',
      ],
      env,
    );
    expect(pair.code).toBe(0);
    const status = json(await premium(['roles', 'status', '--json'], env));
    expect(status).toMatchObject({ enabled: true, guildId: '700000000000000001' });
  });

  it('refuses a bad value with exit 2 naming the rule, and changes nothing', async () => {
    const run = await premium(['settings', 'set', 'SELLER_GSTIN', '29AAGCB7383J1Z5', '--json']);

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: SELLER_GSTIN: .*check/i);
    expect((await premium(['settings', 'set', 'JWT_SECRET', 'x'.repeat(40)])).stderr).toContain(
      'JWT_SECRET: is a secret: it is set in the environment only',
    );
    expect(await stored()).toEqual([]);
  });

  it('refuses to change what the environment sets, and lists it as set by the environment', async () => {
    const env = { STORE_NAME: 'From Env' };
    const run = await premium(['settings', 'set', 'STORE_NAME', 'Melody'], env);

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('STORE_NAME: is set by the environment, which wins');
    const list = json<{ settings: object[] }>(await premium(['settings', 'list', '--json'], env));
    expect(list.settings).toContainEqual(
      expect.objectContaining({
        name: 'STORE_NAME',
        value: 'From Env',
        source: 'environment',
        readOnly: true,
      }),
    );
    expect((await premium(['settings', 'list'], env)).stdout).toContain('set by the environment');
  });
});

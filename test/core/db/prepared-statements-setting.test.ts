import { createCore, type Core } from '../../../src/core';
import { ConfigError, loadConfig } from '../../../src/core/config';
import { grantPremium } from '../../../src/core/premium/grant';
import { getPremiumStatus } from '../../../src/core/users';
import { resetDatabase, testConfig } from '../../support/context';
import { createUser, grantRequest } from '../../support/fixtures';

/** The statements prepared on the session of the pool's one connection. */
async function preparedOnSession(core: Core): Promise<string[]> {
  const [rows] = await core.sequelize.query('SELECT name FROM pg_prepared_statements ORDER BY name');
  return (rows as { name: string }[]).map((row) => row.name);
}

/** A status read and a grant: the two paths that send plain statements. */
async function readAndGrant(core: Core): Promise<void> {
  const user = await createUser();
  await grantPremium(core.sequelize, grantRequest(user.providerId));
  expect(await getPremiumStatus(core.sequelize, user.providerId)).toMatchObject({ isPremium: true });
}

describe.each([
  ['unset', {}, ['grant-user', 'premium-status']],
  ['false', { DATABASE_PREPARED_STATEMENTS: 'false' }, []],
])('DATABASE_PREPARED_STATEMENTS %s', (_, env: NodeJS.ProcessEnv, prepared: string[]) => {
  // One connection: the session whose prepared statements the test lists.
  let core: Core;
  beforeAll(() => {
    core = createCore(testConfig(env), { poolMax: 1 });
  });
  beforeEach(() => resetDatabase(core));
  afterAll(() => core.close());

  it(`prepares ${prepared.length ? prepared.join(' and ') : 'nothing'} on the session`, async () => {
    await readAndGrant(core);

    expect(await preparedOnSession(core)).toEqual(expect.arrayContaining(prepared));
    if (prepared.length === 0) expect(await preparedOnSession(core)).toEqual([]);
  });
});

describe('the safety net when a pooler loses prepared statements the setting did not declare', () => {
  const warnings: string[] = [];
  let core: Core;
  beforeAll(() => {
    core = createCore(testConfig(), { poolMax: 1, warn: (message) => warnings.push(message) });
  });
  beforeEach(() => resetDatabase(core));
  afterAll(() => core.close());

  it('warns once, then prepares nothing more', async () => {
    const user = await createUser();
    await getPremiumStatus(core.sequelize, user.providerId);
    // What PgBouncer < 1.21 in transaction mode causes: the next statement reaches a server connection
    // that does not know the statement this client prepared.
    await core.sequelize.query('DEALLOCATE ALL');
    await getPremiumStatus(core.sequelize, user.providerId);
    await grantPremium(core.sequelize, grantRequest(user.providerId));
    await getPremiumStatus(core.sequelize, user.providerId);

    expect(warnings).toEqual([expect.stringContaining('DATABASE_PREPARED_STATEMENTS=false')]);
    expect(await preparedOnSession(core)).toEqual([]);
  });
});

describe('a bad DATABASE_PREPARED_STATEMENTS', () => {
  it('is a configuration error that names the setting and its values', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_PREPARED_STATEMENTS: 'off' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', DATABASE_PREPARED_STATEMENTS: 'off' })).toThrow(
      'DATABASE_PREPARED_STATEMENTS: must be true or false',
    );
  });
});

import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { changeSettings } from '../../src/core/settings';
import { createUser } from '../support/fixtures';
import { paidMonthlyOrder, usePaymentsApp } from '../support/payments-app';
import {
  GUILD,
  queuedSync,
  ROLE_MEMBER,
  ROLE_PREMIUM,
  ROLE_PRO,
  rolesOf,
  useGuild,
  useRoleWorker,
} from '../support/roles';
import { pollUntil } from '../support/wait';

jest.setTimeout(60_000);

// The bot token alone (a secret: the environment's): the guild and the tier roles come from the settings.
const getApp = usePaymentsApp({ DISCORD_BOT_TOKEN: SANDBOX_BOT_TOKEN, OUTBOX_POLL_INTERVAL_MS: '100' });
const sandbox = () => getApp().sandbox;
useGuild(sandbox);
const startWorker = useRoleWorker(() => getApp().core);

describe('roles set in the settings while the worker runs', () => {
  beforeEach(() => startWorker());

  it('wait untried while roles are off, then follow premium once the console turns them on, no restart', async () => {
    const buyer = await createUser();
    sandbox().discord.guilds.join(GUILD, buyer.providerId, [ROLE_MEMBER]);

    await paidMonthlyOrder(getApp(), buyer);
    await pollUntil(
      'the sync queued',
      async () => (await queuedSync(getApp().core.sequelize, buyer)) !== undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await queuedSync(getApp().core.sequelize, buyer)).toMatchObject({ attempts: 0, last_error: null });
    expect(rolesOf(sandbox(), buyer)).toEqual([ROLE_MEMBER]);

    await changeSettings(
      getApp().core,
      { ROLE_GUILD_ID: GUILD, TIER_ROLES: `premium=${ROLE_PREMIUM},pro=${ROLE_PRO}` },
      'test',
    );

    await pollUntil('the role given', () => {
      const roles = rolesOf(sandbox(), buyer);
      return roles?.includes(ROLE_PREMIUM) && roles;
    });
    expect(rolesOf(sandbox(), buyer)).toEqual([ROLE_MEMBER, ROLE_PREMIUM].sort());
  });
});

import { loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

const GUILD = '700000000000000001';
const PREMIUM_ROLE = '700000000000000011';
const PRO_ROLE = '700000000000000012';

describe('loadConfig: roles', () => {
  it('leaves roles off without any of their settings, and runs the drift sync daily', () => {
    const config = loadConfig({ NODE_ENV: 'test' });

    expect(config.roles).toBeNull();
    expect(config.schedules.roleSync).toBe('41 4 * * *');
  });

  it('turns roles on with all three, each tier with its role', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DISCORD_BOT_TOKEN: 'bot-token',
      ROLE_GUILD_ID: GUILD,
      TIER_ROLES: ` premium=${PREMIUM_ROLE} , pro=${PRO_ROLE}`,
      ROLE_SYNC_CRON: '0 5 * * *',
    });

    expect(config.roles).toEqual({
      botToken: 'bot-token',
      guildId: GUILD,
      tierRoles: { premium: PREMIUM_ROLE, pro: PRO_ROLE },
    });
    expect(config.schedules.roleSync).toBe('0 5 * * *');
  });

  it('names each missing setting of a partial set, beside the other problems', () => {
    const env = {
      NODE_ENV: 'test',
      ROLE_GUILD_ID: GUILD,
      OUTBOX_LISTEN: 'false',
      OUTBOX_LISTEN_URL: 'postgres://db/x',
    };
    expect(problemsOf(env)).toEqual([
      'OUTBOX_LISTEN_URL: is unused with OUTBOX_LISTEN=false',
      expect.stringMatching(/^DISCORD_BOT_TOKEN: is required with ROLE_GUILD_ID \(roles need all of/),
      expect.stringMatching(/^TIER_ROLES: is required with ROLE_GUILD_ID/),
    ]);
  });

  it('refuses a guild that is no Discord id and TIER_ROLES it cannot read, saying what is wrong', () => {
    const problems = (TIER_ROLES: string) =>
      problemsOf({ NODE_ENV: 'test', DISCORD_BOT_TOKEN: 't', ROLE_GUILD_ID: GUILD, TIER_ROLES });

    expect(
      problemsOf({
        NODE_ENV: 'test',
        DISCORD_BOT_TOKEN: 't',
        ROLE_GUILD_ID: 'seller',
        TIER_ROLES: `premium=${PREMIUM_ROLE}`,
      }),
    ).toEqual(['ROLE_GUILD_ID: "seller" is not a Discord server (guild) id (17 to 20 digits)']);
    expect(problems('premium')).toEqual([
      'TIER_ROLES: "premium" is not <tier code>=<role id>, like premium=123456789012345678',
    ]);
    expect(problems('premium=Gold')).toEqual([
      'TIER_ROLES: "Gold" (of premium) is not a Discord role id (17 to 20 digits)',
    ]);
    expect(problems(`premium=${PREMIUM_ROLE},pro=${PREMIUM_ROLE}`)).toEqual([
      `TIER_ROLES: role ${PREMIUM_ROLE} is given to two tiers`,
    ]);
    expect(problems(`premium=${PREMIUM_ROLE},premium=${PRO_ROLE}`)).toEqual([
      'TIER_ROLES: tier premium is named twice',
    ]);
  });
});

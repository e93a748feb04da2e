import { loadConfig, type ConfigError } from '../../../src/core/config';

describe('loadConfig: the bot side', () => {
  it('leaves the bot API off by default, reminds 3 days ahead, and lets the bot make 1200 requests a minute', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      botApiToken: null,
      botRateLimitPerMinute: 1200,
      expiryReminderDays: 3,
      schedules: { expiryReminders: '*/5 * * * *' },
    });
  });

  it('refuses a BOT_API_TOKEN shorter than 32 characters and a reminder that is not a whole number of days', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig({ NODE_ENV: 'test', ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    for (const days of ['0', '1.5']) {
      expect(problems({ BOT_API_TOKEN: 'x'.repeat(31), EXPIRY_REMINDER_DAYS: days })).toEqual([
        expect.stringMatching(/^BOT_API_TOKEN: must be at least 32 characters/),
        expect.stringMatching(/^EXPIRY_REMINDER_DAYS: /),
      ]);
    }
    expect(loadConfig({ NODE_ENV: 'test', BOT_API_TOKEN: 'x'.repeat(32) }).botApiToken).toBe('x'.repeat(32));
  });
});

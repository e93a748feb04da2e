import { PremiumGrant } from '../../src/core/models';
import { useTestCore } from '../support/context';
import { premium } from '../support/cli';

useTestCore();

describe('premium: usage, configuration and failures', () => {
  it.each([
    [
      'zero months',
      ['grant', '--user', '1', '--plan', 'Custom', '--months', '0', '--reason', 'x'],
      /1 to 36/,
    ],
    [
      'Custom without months',
      ['grant', '--user', '1', '--plan', 'Custom', '--reason', 'x'],
      /--months is required with --plan Custom/,
    ],
    ['a malformed user id', ['users', 'show', 'fan'], /expected a Discord id/],
    ['a malformed order id', ['orders', 'show', 'pay_123'], /expected a Razorpay order id/],
    ['a missing argument', ['users', 'show'], /missing required argument 'providerId'/],
    ['an unknown option', ['outbox', 'stats', '--all'], /unknown option '--all'/],
    [
      'two revoke targets',
      ['revoke', '--grant', '1', '--user', '2', '--reason', 'x', '--yes'],
      /exactly one/,
    ],
    ['an unreadable --since', ['orders', 'list', '--since', 'yesterday'], /look-back like/],
  ])('exits 2 with one error line and where the help is for %s', async (_case, args, message) => {
    const run = await premium(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [error, hint, ...rest] = run.stderr.split('\n');
    expect(error).toMatch(message);
    expect(hint).toMatch(new RegExp(`^Run 'premium ${args[0]}( [a-z]+)? --help' for usage\\.$`));
    expect(rest).toEqual(['']);
  });

  it('prints help on stdout and exits 0 with --help', async () => {
    const run = await premium(['grant', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: premium grant \[options\]/);
    expect(run.stdout).toContain('--idempotency-key <key>');
  });

  it('calls revoking a gift code revoke in every help text, as the command is named', async () => {
    const codes = await premium(['codes', '--help']);
    const revoke = await premium(['codes', 'revoke', '--help']);

    expect(codes.stdout).toContain('gift codes: create, list, revoke');
    expect(codes.stdout).toMatch(/^ {2}revoke \[options\] \[codeIds\.\.\.\] +revoke unredeemed gift codes/m);
    expect(revoke.stdout).toContain('revoke unredeemed gift codes');
    expect(`${codes.stdout}${revoke.stdout}`).not.toMatch(/withdr/i);
  });

  it('exits 1 listing every configuration problem', async () => {
    const run = await premium(['users', 'find', 'fan'], { DATABASE_URL: 'not a url', JWT_SECRET: 'short' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Invalid configuration:\n {2}- DATABASE_URL: .+\n {2}- JWT_SECRET: .+\n$/);
  });

  it('exits 1 with one line and no stack trace for an unknown user, and writes nothing', async () => {
    const run = await premium(['grant', '--user', '42', '--plan', 'Monthly', '--reason', 'support ticket']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no user with provider id 42 (USER_NOT_FOUND)\n',
    });
    expect(await PremiumGrant.count()).toBe(0);
  });

  it('exits 1 with one line for a plan the catalog does not hold, and writes nothing', async () => {
    const run = await premium(['grant', '--user', '1', '--plan', 'Weekly', '--reason', 'x']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: no plan "Weekly" in the catalog (UNKNOWN_PLAN)\n',
    });
    expect(await PremiumGrant.count()).toBe(0);
  });

  it('adds the stack trace with --verbose', async () => {
    const run = await premium(['users', 'show', '42', '--verbose']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: no user with provider id 42 \(USER_NOT_FOUND\)\nAppError: .*\n\s+at /,
    );
  });

  it('exits 1 with one line when the database cannot be reached', async () => {
    const run = await premium(['outbox', 'stats'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: the database could not be reached: .*ECONNREFUSED.*\n$/);
  });
});

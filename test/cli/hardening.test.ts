import { OutboxEvent, PremiumGrant, UserGuild } from '../../src/core/models';
import { useTestCore } from '../support/context';
import { createUser, snowflake } from '../support/fixtures';
import { json, premium } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

useTestCore();

const grantGuild = (providerId: string, guildId: string, ...more: string[]) =>
  premium([
    'grant',
    '--user',
    providerId,
    '--guild',
    guildId,
    '--plan',
    'Monthly',
    '--reason',
    'goodwill',
    ...more,
  ]);

describe('premium grant --guild', () => {
  it('asks for --yes before granting to a guild no one has signed in with, and changes nothing without it', async () => {
    const user = await createUser();
    const guildId = snowflake();

    const refused = await grantGuild(user.providerId, guildId);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'error: stdin is not a terminal, so nothing was asked or changed; add --yes to go ahead\n',
    );
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);

    expect((await grantGuild(user.providerId, guildId, '--yes')).code).toBe(0);
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('grants without asking to a guild a signed-in user manages', async () => {
    const user = await createUser();
    const guildId = snowflake();
    await UserGuild.create({
      userId: user.id,
      guildId,
      name: 'Known',
      icon: null,
      owner: true,
      permissions: '0',
    });

    const run = await grantGuild(user.providerId, guildId, '--json');
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ category: 'SERVER', guildId });
  });
});

describe('an idempotency key reused for another change', () => {
  it('exits 1 with IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
    const user = await createUser();
    const key = ['--idempotency-key', 'ticket-4711'];
    const grant = (plan: string) =>
      premium(['grant', '--user', user.providerId, '--plan', plan, '--reason', 'ticket 4711', ...key]);
    expect((await grant('Monthly')).code).toBe(0);

    const reused = await grant('Yearly');
    expect(reused.code).toBe(1);
    expect(reused.stdout).toBe('');
    expect(reused.stderr).toMatch(
      /^error: idempotency key ticket-4711 was used for another change .+ \(IDEMPOTENCY_KEY_REUSED\)\n$/,
    );
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
  });
});

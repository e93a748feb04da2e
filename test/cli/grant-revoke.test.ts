import os from 'node:os';
import { OutboxEvent, PremiumGrant, ServerPremium, UserPremium } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import type { PremiumChange } from '../../src/core/premium/types';
import { testConfig, useTestCore } from '../support/context';
import { createUser, grantRequest, snowflake } from '../support/fixtures';
import { localTime } from '../../src/core/local-time';
import { json, premium, premiumAtTerminal } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();

type ChangeJson = Omit<PremiumChange, 'expiresAt' | 'expiresBefore'> & {
  expiresAt: string;
  expiresBefore: string | null;
  idempotencyKey: string;
};

describe('premium grant', () => {
  it('grants USER premium through the ledger and queues the ADD event', async () => {
    const user = await createUser();
    const run = await premium([
      'grant',
      '--user',
      user.providerId,
      '--plan',
      'Monthly',
      '--reason',
      'paid, webhook lost',
      '--actor',
      'asha',
      '--json',
    ]);

    expect(run.code).toBe(0);
    const result = json<ChangeJson>(run);
    expect(result).toMatchObject({
      kind: 'grant',
      category: 'USER',
      providerId: user.providerId,
      guildId: null,
      days: 30,
      source: 'manual',
      replayed: false,
      idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect((await user.reload()).premiumExpiresAt!.toISOString()).toBe(result.expiresAt);
    const [ledger] = await PremiumGrant.findAll();
    expect(ledger).toMatchObject({
      id: result.grantId,
      idempotencyKey: result.idempotencyKey,
      actor: 'asha',
      reason: 'paid, webhook lost',
      source: 'manual',
    });
    const events = await OutboxEvent.findAll();
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({
        eventId: result.eventId,
        type: 'USER_PREMIUM_ADD',
        providerId: user.providerId,
        expiresAt: result.expiresAt,
      }),
    ]);
  });

  it('grants a guild Custom months as SERVER premium, acting as the OS user by default', async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    const run = await premium([
      'grant',
      '--user',
      buyer.providerId,
      '--guild',
      guildId,
      '--plan',
      'Custom',
      '--months',
      '3',
      '--reason',
      'goodwill',
      // No one has signed in with this guild yet.
      '--yes',
      '--json',
    ]);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ category: 'SERVER', guildId, days: 90, planType: 'Custom' });
    expect((await ServerPremium.findOne({ where: { guildId } }))!.buyerUserId).toBe(buyer.id);
    expect((await PremiumGrant.findOne())!.actor).toBe(os.userInfo().username);
    const [event] = await OutboxEvent.findAll();
    expect(event).toMatchObject({ type: 'SERVER_PREMIUM_ADD', aggregateKey: `guild:${guildId}` });
  });

  it('prints its idempotency key, and a retry with that key changes nothing', async () => {
    const user = await createUser();
    const args = ['grant', '--user', user.providerId, '--plan', 'Yearly', '--reason', 'ticket 12'];
    const first = await premium(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Granted 365 days of USER premium to user \d+: it now ends \d{4}-\d\d-\d\d \d\d:\d\d IST \(in 364 days\)\./,
    );
    const key = /Idempotency key: (\S+)/.exec(first.stdout)![1]!;

    const retry = await premium([...args, '--idempotency-key', key]);

    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(/^Nothing changed: this idempotency key was already used by grant #1\./);
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect((await UserPremium.findOne())!.version).toBe(1);
  });
});

describe('premium revoke', () => {
  it('refuses without --yes when stdin is not a terminal, changing nothing', async () => {
    const user = await createUser();
    const grant = await grantPremium(getCore().sequelize, grantRequest(user.providerId));

    const run = await premium(['revoke', '--grant', String(grant.grantId), '--reason', 'refund']);

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: stdin is not a terminal, so nothing was asked or changed; add --yes to go ahead\n',
    );
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect((await user.reload()).premiumExpiresAt).toEqual(grant.expiresAt);
  });

  it("takes one grant's days back with --yes and queues the REMOVE event", async () => {
    const user = await createUser();
    const first = await grantPremium(getCore().sequelize, grantRequest(user.providerId));
    const second = await grantPremium(getCore().sequelize, grantRequest(user.providerId));

    const run = await premium([
      'revoke',
      '--grant',
      String(second.grantId),
      '--reason',
      'refund',
      '--yes',
      '--json',
    ]);

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ kind: 'revoke', days: -30, expiresAt: first.expiresAt.toISOString() });
    expect((await user.reload()).premiumExpiresAt).toEqual(first.expiresAt);
    expect(await PremiumGrant.findOne({ where: { kind: 'revoke' } })).toMatchObject({
      revokesGrantId: second.grantId,
      source: 'manual',
      reason: 'refund',
    });
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({
      providerId: user.providerId,
      reason: 'refund',
      durationDays: 30,
    });
  });

  it('asks at a terminal whose grant, how many days and what the expiry becomes, and takes y', async () => {
    const user = await createUser({ username: 'fanboy' });
    const first = await grantPremium(getCore().sequelize, grantRequest(user.providerId));
    const second = await grantPremium(getCore().sequelize, grantRequest(user.providerId));

    const run = await premiumAtTerminal(['revoke', '--grant', String(second.grantId), '--reason', 'refund'], {
      input: 'y\n',
    });

    expect(run.code).toBe(0);
    // As the CLI writes a time: in REPORT_TIMEZONE.
    const shown = (date: Date) => localTime(date, testConfig().reportTimeZone);
    const asked = new RegExp(
      `Revoke grant #${second.grantId} \\(Monthly\\): 30 day\\(s\\) of the USER premium of fanboy \\(${user.providerId}\\)\\. ` +
        `It ends ${shown(first.expiresAt).slice(0, 15)}.* instead of ${shown(second.expiresAt)} .*The bot is told at once\\. Go ahead\\? \\[y/N\\]`,
    );
    expect(run.stdout).toMatch(asked);
    expect(await PremiumGrant.count({ where: { kind: 'revoke' } })).toBe(1);
  });

  it('changes nothing when the answer at the terminal is not y or yes', async () => {
    const user = await createUser();
    const grant = await grantPremium(getCore().sequelize, grantRequest(user.providerId));

    const run = await premiumAtTerminal(['revoke', '--user', user.providerId, '--reason', 'x'], {
      input: 'no\n',
    });

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/End the USER premium of fan .*Go ahead\? \[y\/N\] .*no/);
    expect(run.stdout).toContain('error: not confirmed; nothing was changed (NOT_CONFIRMED)');
    expect(await PremiumGrant.count()).toBe(1);
    expect((await user.reload()).premiumExpiresAt).toEqual(grant.expiresAt);
  });

  it("ends a guild's SERVER premium with --guild", async () => {
    const buyer = await createUser();
    const guildId = snowflake();
    await grantPremium(getCore().sequelize, grantRequest(buyer.providerId, { category: 'SERVER', guildId }));

    const ended = await premium(['revoke', '--guild', guildId, '--reason', 'chargeback', '--yes']);

    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(
      /^Took 30 days of SERVER premium back from guild \d+ \(for user \d+\): it now ends/,
    );
    expect((await buyer.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await OutboxEvent.count({ where: { type: 'SERVER_PREMIUM_REMOVE' } })).toBe(1);
  });
});

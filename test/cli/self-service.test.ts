import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { redeemCode } from '../../src/core/codes/redeem-code';
import { OutboxEvent, PremiumGrant, ServerPremium } from '../../src/core/models';
import { applyPayment } from '../../src/core/payments/apply-payment';
import { grantPremium } from '../../src/core/premium/grant';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser, DAY_MS, grantRequest, snowflake } from '../support/fixtures';
import { json, premium } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();

interface BatchJson {
  batchId: number;
  planType: string;
  durationDays: number;
  expiresAt: string | null;
  codes: { codeId: number; code: string }[];
}

const rows = <T extends object>(sql: string) =>
  getCore().sequelize.query<T>(sql, { type: QueryTypes.SELECT });

describe('premium codes', () => {
  it('create prints a batch of codes once and stores only their SHA-256', async () => {
    const run = await premium([
      'codes',
      'create',
      '--plan',
      'Yearly',
      '--count',
      '3',
      '--expires-in',
      '90d',
      '--reason',
      'reseller 4',
      '--json',
    ]);

    expect(run.code).toBe(0);
    const batch = json<BatchJson>(run);
    expect(batch).toMatchObject({ planType: 'Yearly', durationDays: 365, reason: 'reseller 4' });
    expect(batch.codes).toHaveLength(3);
    expect(new Set(batch.codes.map((entry) => entry.code)).size).toBe(3);
    for (const { code } of batch.codes)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const expiresAt = new Date(batch.expiresAt!).getTime();
    expect(expiresAt).toBeGreaterThan(Date.now() + 90 * DAY_MS - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);

    const stored = await rows<{ id: number; code_sha256: string }>(
      'SELECT id, code_sha256 FROM premium_codes ORDER BY id',
    );
    expect(stored).toEqual(
      batch.codes.map(({ codeId, code }) => ({
        id: codeId,
        code_sha256: createHash('sha256').update(code.replace(/-/g, '')).digest('hex'),
      })),
    );
    const everything = JSON.stringify(
      await rows('SELECT * FROM premium_codes c JOIN premium_code_batches b ON b.id = c.batch_id'),
    );
    for (const { code } of batch.codes) expect(everything).not.toContain(code.replace(/-/g, ''));
  });

  it('create makes codes that expire in 90 days unless --expires-in never is given', async () => {
    const made = json<BatchJson>(
      await premium(['codes', 'create', '--plan', 'Monthly', '--reason', 'giveaway', '--json']),
    );
    const expiresAt = new Date(made.expiresAt!).getTime();
    expect(expiresAt).toBeGreaterThan(Date.now() + 90 * DAY_MS - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);
    expect(await rows('SELECT expires_at FROM premium_code_batches')).toEqual([
      { expires_at: new Date(made.expiresAt!) },
    ]);

    const misspelt = await premium([
      'codes',
      'create',
      '--plan',
      'Monthly',
      '--reason',
      'x',
      '--expires-in',
      'nevr',
    ]);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toMatch(/--expires-in/);
  });

  it('create prints the codes as text, and Custom needs --months', async () => {
    const text = await premium([
      'codes',
      'create',
      '--plan',
      'Custom',
      '--months',
      '2',
      '--expires-in',
      'never',
      '--reason',
      'giveaway',
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Batch #1: 1 code for Custom 2 mo \(60 days\), never expiring\./);
    expect(text.stdout).toMatch(/\n[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4} {2}#1\n$/);

    const usage = await premium(['codes', 'create', '--plan', 'Custom', '--reason', 'giveaway']);
    expect(usage.code).toBe(2);
    const tooMany = await premium([
      'codes',
      'create',
      '--plan',
      'Monthly',
      '--count',
      '1001',
      '--reason',
      'x',
    ]);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toMatch(/\(INVALID_COUNT\)/);
    expect(await rows('SELECT * FROM premium_codes WHERE batch_id > 1')).toEqual([]);
  });

  it('list shows each code by id and state; revoke revokes unredeemed ones, which are then refused', async () => {
    const batch = json<BatchJson>(
      await premium([
        'codes',
        'create',
        '--plan',
        'Monthly',
        '--count',
        '3',
        '--reason',
        'giveaway',
        '--json',
      ]),
    );
    const [first, second, third] = batch.codes;
    const fan = await createUser();
    await redeemCode(getCore().sequelize, {
      callerProviderId: fan.providerId,
      code: first!.code,
      category: 'USER',
      ip: '127.0.0.1',
    });

    const refused = await premium(['codes', 'revoke', String(second!.codeId), '--reason', 'leaked']);
    expect(refused.code).toBe(2);
    const unknown = await premium([
      'codes',
      'revoke',
      String(second!.codeId),
      '999',
      '--reason',
      'x',
      '--yes',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('error: no code with id 999 (CODE_NOT_FOUND)\n');

    const revoke = await premium([
      'codes',
      'revoke',
      '--batch',
      String(batch.batchId),
      '--reason',
      'leaked',
      '--yes',
      '--json',
    ]);
    expect(revoke.code).toBe(0);
    expect(json(revoke)).toEqual({
      revoked: [second!.codeId, third!.codeId],
      skipped: [{ codeId: first!.codeId, reason: 'already redeemed' }],
    });

    const list = await premium(['codes', 'list', '--json']);
    expect(json<{ codes: object[] }>(list).codes).toEqual([
      expect.objectContaining({ codeId: third!.codeId, status: 'revoked', revokeReason: 'leaked' }),
      expect.objectContaining({ codeId: second!.codeId, status: 'revoked' }),
      expect.objectContaining({ codeId: first!.codeId, status: 'redeemed', redeemedBy: fan.providerId }),
    ]);
    const redeemed = await premium(['codes', 'list', '--status', 'redeemed']);
    expect(redeemed.stdout).toMatch(
      new RegExp(`^CODE .+\\n#${first!.codeId} +#${batch.batchId} +redeemed +Monthly`),
    );

    await expect(
      redeemCode(getCore().sequelize, {
        callerProviderId: fan.providerId,
        code: second!.code,
        category: 'USER',
        ip: '127.0.0.1',
      }),
    ).rejects.toMatchObject({ code: 'CODE_REVOKED' });
  });

  it('list shows a code bought in the store with its buyer and payment, and --json too', async () => {
    const buyer = await createUser();
    const order = await createOrderRow(buyer.id, { gift: true });
    await applyPayment(
      getCore().sequelize,
      { processorOrderId: order.processorOrderId, paymentId: 'pay_GiftCli0000001' },
      { source: 'webhook', invoicing: getCore().config.invoicing },
    );
    const listed = json<{ codes: { paymentId: string | null; boughtBy: string | null; status: string }[] }>(
      await premium(['codes', 'list', '--json']),
    );
    expect(listed.codes[0]).toMatchObject({
      paymentId: 'pay_GiftCli0000001',
      boughtBy: buyer.providerId,
      status: 'unused',
    });
    const table = await premium(['codes', 'list', '--limit', '1']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('BOUGHT BY');
    expect(table.stdout).toContain(buyer.providerId);
    expect(table.stdout).toContain('pay_GiftCli0000001');
  });
});

describe('premium transfer', () => {
  async function guildWithMonth(): Promise<{ guildId: string; providerId: string }> {
    const buyer = await createUser();
    const guildId = snowflake();
    await grantPremium(getCore().sequelize, grantRequest(buyer.providerId, { category: 'SERVER', guildId }));
    return { guildId, providerId: buyer.providerId };
  }

  it('asks first: without --yes on a pipe it changes nothing', async () => {
    const { guildId } = await guildWithMonth();
    const run = await premium(['transfer', '--from', guildId, '--to', snowflake(), '--reason', 'ticket 9']);
    expect(run.code).toBe(2);
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('moves a guild on behalf of its buyer with no cooldown, and a retry with its key changes nothing', async () => {
    const { guildId: from, providerId } = await guildWithMonth();
    const [to, onward] = [snowflake(), snowflake()];

    const run = await premium([
      'transfer',
      '--from',
      from,
      '--to',
      to,
      '--reason',
      'ticket 9',
      '--actor',
      'asha',
      '--yes',
      '--json',
    ]);

    expect(run.code).toBe(0);
    const result = json<{ days: number; providerId: string; idempotencyKey: string; replayed: boolean }>(run);
    expect(result).toMatchObject({ fromGuildId: from, toGuildId: to, days: 30, providerId, replayed: false });
    const ledger = await PremiumGrant.findAll({ where: { source: 'transfer' }, order: [['id', 'ASC']] });
    expect(ledger.map((row) => [row.kind, row.guildId, row.actor, row.reason])).toEqual([
      ['revoke', from, 'asha', 'ticket 9'],
      ['grant', to, 'asha', 'ticket 9'],
    ]);
    const events = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    expect(events.slice(1).map((event) => [event.type, event.payload.guildId, event.payload.source])).toEqual(
      [
        ['SERVER_PREMIUM_REMOVE', from, 'transfer'],
        ['SERVER_PREMIUM_ADD', to, 'transfer'],
      ],
    );

    const retry = await premium([
      'transfer',
      '--from',
      from,
      '--to',
      to,
      '--reason',
      'ticket 9',
      '--yes',
      '--idempotency-key',
      result.idempotencyKey,
    ]);
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(/^Nothing changed: this idempotency key was already used by transfer #1\./);
    expect(await OutboxEvent.count()).toBe(3);

    const again = await premium([
      'transfer',
      '--from',
      to,
      '--to',
      onward,
      '--reason',
      'ticket 9, again',
      '--yes',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Moved 30 days of SERVER premium from guild ${to} to guild ${onward}\\.`),
    );
    expect(
      (await ServerPremium.findOne({ where: { guildId: onward } }))!.expiresAt.getTime(),
    ).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });

  it.each([
    ['to the same guild', 'SAME_GUILD', async (g: string) => [g, g]],
    ['from a guild without premium', 'NO_PREMIUM', async () => [snowflake(), snowflake()]],
    [
      'from a guild with less than half a day left',
      'NOTHING_TO_TRANSFER',
      async (g: string) => {
        await getCore().sequelize.query(
          `UPDATE server_premiums SET expires_at = now() + interval '6 hours' WHERE guild_id = $1`,
          { bind: [g] },
        );
        return [g, snowflake()];
      },
    ],
  ])('refuses a transfer %s (exit 1, %s) and changes nothing', async (_label, code, guilds) => {
    const { guildId } = await guildWithMonth();
    const [from, to] = await guilds(guildId);
    const before = await rows('SELECT * FROM server_premiums ORDER BY id');

    const run = await premium(['transfer', '--from', from!, '--to', to!, '--reason', 'ticket', '--yes']);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`\\(${code}\\)\\n$`));
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect(await rows('SELECT * FROM server_premiums ORDER BY id')).toEqual(before);
    expect(await rows('SELECT * FROM premium_transfers')).toEqual([]);
  });
});

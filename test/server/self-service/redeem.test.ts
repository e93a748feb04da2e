import { QueryTypes } from 'sequelize';
import { seedPlan } from '../../support/fixtures';
import { createCodes } from '../../../src/core/codes/create-codes';
import { OutboxEvent, PremiumGrant, UserPremium, type User } from '../../../src/core/models';
import { useTestApp } from '../../support/app';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';
import { bearer, manageGuild } from '../../support/payments-app';
import { errorOf, snapshot } from '../../support/self-service';

const getApp = useTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });

async function newCode(planType = 'Monthly', months?: number): Promise<{ codeId: number; code: string }> {
  const batch = await createCodes(getApp().core.sequelize, {
    plan: seedPlan(planType, months),
    count: 1,
    expiresAt: null,
    actor: 'test',
    reason: 'giveaway',
  });
  return batch.codes[0]!;
}

function redeem(user: User, body: object, remoteAddress = '127.0.0.1') {
  return getApp().app.inject({
    method: 'POST',
    url: '/api/premium/redeem',
    headers: { authorization: bearer(getApp(), user) },
    payload: body,
    remoteAddress,
  });
}

const failures = async () =>
  (
    await getApp().core.sequelize.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM code_attempt_failures',
      { type: QueryTypes.SELECT },
    )
  )[0]!.count;

describe('POST /api/premium/redeem', () => {
  it("grants the code's plan to the caller through the ledger, naming the code's id and never the code", async () => {
    const user = await createUser();
    const { codeId, code } = await newCode();

    const reply = await redeem(user, { code, category: 'USER' });

    expect(reply.statusCode).toBe(200);
    const body = reply.json();
    expect(body).toMatchObject({ codeId, category: 'USER', guildId: null, planType: 'Monthly', days: 30 });
    expect((await UserPremium.findOne())!.expiresAt.toISOString()).toBe(body.expiresAt);
    const [grant, ...more] = await PremiumGrant.findAll();
    expect(more).toEqual([]);
    expect(grant).toMatchObject({
      source: 'code',
      reason: `code #${codeId}`,
      idempotencyKey: `code:${codeId}`,
      actor: `user:${user.providerId}`,
    });
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({ type: 'USER_PREMIUM_ADD', source: 'code', durationDays: 30 });
    const everything = JSON.stringify(await snapshot(getApp()));
    expect(everything).not.toContain(code);
    expect(everything).not.toContain(code.replace(/-/g, ''));
    expect(everything).toContain(`"grant_id":${grant!.id}`);
  });

  it('grants a Custom code to a guild the caller manages, however the code is typed', async () => {
    const user = await createUser();
    const guildId = await manageGuild(user);
    const { code } = await newCode('Custom', 3);

    const reply = await redeem(user, { code: ` ${code.toLowerCase().replace(/-/g, ' ')} `, guildId });

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ category: 'SERVER', guildId, planType: 'Custom', days: 90 });
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({ type: 'SERVER_PREMIUM_ADD', guildId, source: 'code' });
  });

  it('lets one of two redemptions of a code at once win; the other is CODE_USED', async () => {
    const [first, second] = [await createUser(), await createUser()];
    const { code } = await newCode();

    // Different users and IPs, so that only the code's row lock stands between them.
    const replies = await Promise.all([
      redeem(first, { code, category: 'USER' }, '192.0.2.1'),
      redeem(second, { code, category: 'USER' }, '192.0.2.2'),
    ]);

    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
    expect(replies.map((reply) => reply.json().error?.code).filter(Boolean)).toEqual(['CODE_USED']);
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
  });

  it('answers the same caller redeeming the code again for the same guild with the first redemption, counting nothing', async () => {
    const user = await createUser();
    const guildId = await manageGuild(user);
    const { code } = await newCode();
    const first = await redeem(user, { code, guildId });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await snapshot(getApp());

    const again = await Promise.all([redeem(user, { code, guildId }), redeem(user, { code, guildId })]);

    for (const reply of again) {
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['idempotent-replayed']).toBe('true');
      expect(reply.json()).toEqual(first.json());
    }
    expect(await snapshot(getApp())).toEqual(after);
    expect(await failures()).toBe(0);
  });

  it.each([
    ['for another target', false],
    ['after ten minutes', true],
  ])('refuses the same caller the code again %s: CODE_USED, counted', async (_label, later) => {
    const user = await createUser();
    const guildId = await manageGuild(user);
    const { codeId, code } = await newCode();
    expect((await redeem(user, { code, guildId })).statusCode).toBe(200);
    if (later) {
      await getApp().core.sequelize.query(
        "UPDATE premium_codes SET redeemed_at = redeemed_at - interval '11 minutes' WHERE id = $1",
        { bind: [codeId] },
      );
    }
    const after = await snapshot(getApp());

    const reply = await redeem(user, later ? { code, guildId } : { code, category: 'USER' });

    expect(errorOf(reply)).toEqual({ status: 409, code: 'CODE_USED' });
    expect(await snapshot(getApp())).toEqual(after);
    expect(await failures()).toBe(1);
  });

  describe('refuses, writing nothing but the counted failure', () => {
    async function setUp() {
      const user = await createUser();
      const used = await newCode();
      expect((await redeem(await createUser(), { code: used.code, category: 'USER' })).statusCode).toBe(200);
      const expired = await newCode();
      await getApp().core.sequelize.query(
        `UPDATE premium_code_batches SET expires_at = now() - interval '1 second'
         WHERE id = (SELECT batch_id FROM premium_codes WHERE id = $1)`,
        { bind: [expired.codeId] },
      );
      const revoked = await newCode();
      await getApp().core.sequelize.query(
        `UPDATE premium_codes SET revoked_at = now(), revoked_by = 'test', revoke_reason = 'leaked' WHERE id = $1`,
        { bind: [revoked.codeId] },
      );
      return {
        user,
        used: used.code,
        expired: expired.code,
        revoked: revoked.code,
        fresh: (await newCode()).code,
      };
    }

    it.each([
      [
        'an unknown code',
        404,
        'CODE_NOT_FOUND',
        true,
        () => ({ code: '0000-0000-0000-0000', category: 'USER' }),
      ],
      ['a used code', 409, 'CODE_USED', true, (c: Codes) => ({ code: c.used, category: 'USER' })],
      ['an expired code', 410, 'CODE_EXPIRED', true, (c: Codes) => ({ code: c.expired, category: 'USER' })],
      ['a revoked code', 410, 'CODE_REVOKED', true, (c: Codes) => ({ code: c.revoked, category: 'USER' })],
      [
        'a malformed code',
        400,
        'INVALID_CODE',
        false,
        () => ({ code: 'free-premium-please', category: 'USER' }),
      ],
      [
        'a guild the caller does not manage',
        403,
        'NOT_GUILD_MANAGER',
        false,
        (c: Codes) => ({ code: c.fresh, guildId: snowflake() }),
      ],
      [
        'SERVER without a guild',
        400,
        'GUILD_REQUIRED',
        false,
        (c: Codes) => ({ code: c.fresh, category: 'SERVER' }),
      ],
      [
        'USER with a guild',
        400,
        'GUILD_NOT_ALLOWED',
        false,
        (c: Codes) => ({ code: c.fresh, category: 'USER', guildId: snowflake() }),
      ],
    ])('%s: %i %s', async (_label, status, code, counted, body) => {
      const codes = await setUp();
      const before = await snapshot(getApp());

      const reply = await redeem(codes.user, body(codes));

      expect(errorOf(reply)).toEqual({ status, code });
      expect(await snapshot(getApp())).toEqual(before);
      expect(await failures()).toBe(counted ? 1 : 0);
    });
  });

  it('allows 10 failed attempts a user an hour, then refuses even a good code with TOO_MANY_ATTEMPTS', async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(errorOf(await redeem(user, { code: 'AAAA-AAAA-AAAA-AAAA', category: 'USER' })).code).toBe(
        'CODE_NOT_FOUND',
      );
    }
    const { code } = await newCode();
    const before = await snapshot(getApp());

    const reply = await redeem(user, { code, category: 'USER' });

    expect(errorOf(reply)).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
    const retryAt = new Date(reply.json().error.details.retryAt).getTime();
    expect(retryAt).toBeGreaterThan(Date.now() + DAY_MS / 24 - 60_000);
    const retryAfter = Number(reply.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await snapshot(getApp())).toEqual(before);
    expect(await failures()).toBe(10);
    // Another user is not held back by this one's failures.
    expect((await redeem(await createUser(), { code, category: 'USER' })).statusCode).toBe(200);
  });

  it('names, when the user and their IP are both at their limits, when both have room again', async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await redeem(user, { code: 'CCCC-CCCC-CCCC-CCCC', category: 'USER' }, '198.51.100.9');
    }
    // The user's own failures are half an hour old; the IP's are fresh.
    await getApp().core.sequelize.query(
      "UPDATE code_attempt_failures SET created_at = created_at - interval '30 minutes'",
    );
    for (let guesser = 0; guesser < 3; guesser += 1) {
      const other = await createUser();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await redeem(other, { code: 'DDDD-DDDD-DDDD-DDDD', category: 'USER' }, '203.0.113.8');
      }
    }

    const reply = await redeem(user, { code: (await newCode()).code, category: 'USER' }, '203.0.113.8');

    expect(errorOf(reply)).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
    expect(new Date(reply.json().error.details.retryAt).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(Number(reply.headers['retry-after'])).toBeGreaterThan(55 * 60);
  });

  it('allows 30 failed attempts an IP an hour, whoever makes them', async () => {
    for (let user = 0; user < 3; user += 1) {
      const guesser = await createUser();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await redeem(guesser, { code: 'BBBB-BBBB-BBBB-BBBB', category: 'USER' }, '203.0.113.7');
      }
    }
    const { code } = await newCode();

    const fromThatIp = await redeem(await createUser(), { code, category: 'USER' }, '203.0.113.7');
    const fromElsewhere = await redeem(await createUser(), { code, category: 'USER' }, '198.51.100.1');

    expect(errorOf(fromThatIp)).toEqual({ status: 429, code: 'TOO_MANY_ATTEMPTS' });
    expect(fromElsewhere.statusCode).toBe(200);
  });
});

interface Codes {
  used: string;
  expired: string;
  revoked: string;
  fresh: string;
}

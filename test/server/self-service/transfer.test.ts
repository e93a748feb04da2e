import { Redis } from 'ioredis';
import { localTime } from '../../../src/core/local-time';
import { OutboxEvent, PremiumGrant, ServerPremium, type User } from '../../../src/core/models';
import { revokePremium } from '../../../src/core/premium/revoke';
import { transferPremium } from '../../../src/core/transfers/transfer';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { readStream } from '../../support/outbox-stream';
import { useRelays } from '../../support/relays';
import {
  bearer,
  deliver,
  manageGuild,
  paymentOf,
  post,
  refundAtProcessor,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { buyMonthFor, errorOf, snapshot } from '../../support/self-service';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();
const startRelay = useRelays();

function transfer(user: User, body: object, idempotencyKey?: string) {
  return app().app.inject({
    method: 'POST',
    url: '/api/premium/transfer',
    headers: {
      authorization: bearer(app(), user),
      ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
    },
    payload: body,
  });
}

/** A user managing two guilds, with a month bought for the first. */
async function buyerOfTwo(): Promise<{
  buyer: User;
  from: string;
  to: string;
  orderId: string;
  paymentId: string;
}> {
  const buyer = await createUser();
  const from = await manageGuild(buyer);
  const to = await manageGuild(buyer);
  return { buyer, from, to, ...(await buyMonthFor(app(), buyer, from)) };
}

const expiryOf = async (guildId: string) => (await ServerPremium.findOne({ where: { guildId } }))!.expiresAt;

describe('POST /api/premium/transfer', () => {
  it('moves what is left to the other guild in one go: REMOVE and ADD, a ledger row each, on the stream', async () => {
    const { buyer, from, to } = await buyerOfTwo();
    const boughtUntil = await expiryOf(from);

    const reply = await transfer(buyer, { fromGuildId: from, toGuildId: to });

    expect(reply.statusCode).toBe(200);
    const body = reply.json();
    expect(body).toMatchObject({ fromGuildId: from, toGuildId: to, days: 30 });
    // Named as the buyer knows them (manageGuild's name), the time in REPORT_TIMEZONE (India's by default).
    expect(body.message).toBe(
      `Moved 30 days of premium from Guild to Guild: it is active there until ${localTime(new Date(body.toExpiresAt), 'Asia/Kolkata')}.`,
    );
    expect(new Date(body.fromExpiresAt).getTime()).toBeLessThanOrEqual(Date.now());
    // The new guild's month runs from the transfer, a moment after the purchase.
    expect(new Date(body.toExpiresAt).getTime()).toBeGreaterThanOrEqual(boughtUntil.getTime());
    expect(new Date(body.toExpiresAt).getTime()).toBeLessThan(boughtUntil.getTime() + 60_000);
    expect((await expiryOf(from)).toISOString()).toBe(body.fromExpiresAt);
    expect((await expiryOf(to)).toISOString()).toBe(body.toExpiresAt);

    const ledger = await PremiumGrant.findAll({ order: [['id', 'ASC']] });
    expect(ledger.map((row) => [row.kind, row.guildId, row.source, row.days, row.planType])).toEqual([
      ['grant', from, 'checkout', 30, 'Monthly'],
      ['revoke', from, 'transfer', -30, 'Monthly'],
      ['grant', to, 'transfer', 30, 'Monthly'],
    ]);
    expect(ledger[1]!.actor).toBe(`user:${buyer.providerId}`);
    expect(ledger[2]!.userId).toBe(buyer.id);

    const { config } = app().core;
    startRelay(config);
    const redis = new Redis(config.redisUrl);
    try {
      const stream = await pollUntil('three events on the stream', async () => {
        const events = await readStream(redis, config.eventsStream);
        return events.length === 3 && events;
      });
      expect(stream.map((event) => [event.type, event.payload.guildId, event.payload.source])).toEqual([
        ['SERVER_PREMIUM_ADD', from, 'checkout'],
        ['SERVER_PREMIUM_REMOVE', from, 'transfer'],
        ['SERVER_PREMIUM_ADD', to, 'transfer'],
      ]);
      expect(stream[2]!.payload).toMatchObject({
        expiresAt: body.toExpiresAt,
        durationDays: 30,
        planType: 'Monthly',
      });
    } finally {
      redis.disconnect();
    }
  });

  it('refuses a second transfer from the guild, or onward from the new one, during the cooldown', async () => {
    const { buyer, from, to } = await buyerOfTwo();
    const third = await manageGuild(buyer);
    expect((await transfer(buyer, { fromGuildId: from, toGuildId: to })).statusCode).toBe(200);
    await buyMonthFor(app(), buyer, from);
    const before = await snapshot(app());

    const again = await transfer(buyer, { fromGuildId: from, toGuildId: third });
    const onward = await transfer(buyer, { fromGuildId: to, toGuildId: third });

    for (const reply of [again, onward]) {
      expect(errorOf(reply)).toEqual({ status: 429, code: 'TRANSFER_COOLDOWN' });
      const endsAt = new Date(reply.json().error.details.cooldownEndsAt).getTime();
      expect(endsAt).toBeGreaterThan(Date.now() + 7 * DAY_MS - 60_000);
      expect(endsAt).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
      expect(reply.json().error.details.retryAt).toBe(reply.json().error.details.cooldownEndsAt);
      expect(Number(reply.headers['retry-after'])).toBeCloseTo((endsAt - Date.now()) / 1000, -1);
    }
    expect(await snapshot(app())).toEqual(before);
  });

  it('answers a retry with the same Idempotency-Key with the transfer it made, moving nothing more', async () => {
    const { buyer, from, to } = await buyerOfTwo();
    const first = await transfer(buyer, { fromGuildId: from, toGuildId: to }, 'move-7f3a');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await snapshot(app());

    const retried = await transfer(buyer, { fromGuildId: from, toGuildId: to }, 'move-7f3a');

    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(first.json());
    expect(await snapshot(app())).toEqual(after);
  });

  it('refuses the same Idempotency-Key for another transfer with 409 IDEMPOTENCY_KEY_REUSED; another user has keys of their own', async () => {
    const { buyer, from, to } = await buyerOfTwo();
    const third = await manageGuild(buyer);
    expect((await transfer(buyer, { fromGuildId: from, toGuildId: to }, 'move-1')).statusCode).toBe(200);
    const after = await snapshot(app());

    const reused = await transfer(buyer, { fromGuildId: to, toGuildId: third }, 'move-1');

    expect(errorOf(reused)).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await snapshot(app())).toEqual(after);
    const other = await buyerOfTwo();
    const theirs = await transfer(other.buyer, { fromGuildId: other.from, toGuildId: other.to }, 'move-1');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['over 100 characters', 'k'.repeat(101)],
    ['with a space', 'move 1'],
  ])('refuses an Idempotency-Key %s with 400 VALIDATION_FAILED, moving nothing', async (_label, key) => {
    const { buyer, from, to } = await buyerOfTwo();
    const before = await snapshot(app());

    const reply = await transfer(buyer, { fromGuildId: from, toGuildId: to }, key);

    expect(errorOf(reply)).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await snapshot(app())).toEqual(before);
  });

  it('lets two transfers of one guild at once move it once', async () => {
    const { buyer, from, to } = await buyerOfTwo();
    const third = await manageGuild(buyer);

    const replies = await Promise.all([
      transfer(buyer, { fromGuildId: from, toGuildId: to }),
      transfer(buyer, { fromGuildId: from, toGuildId: third }),
    ]);

    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 429]);
    expect(await PremiumGrant.count({ where: { source: 'transfer' } })).toBe(2);
    expect(await OutboxEvent.count()).toBe(3);
  });

  it.each([
    ['to the same guild', 400, 'SAME_GUILD', (g: Guilds) => ({ fromGuildId: g.from, toGuildId: g.from })],
    [
      'to a guild the caller does not manage',
      403,
      'NOT_GUILD_MANAGER',
      (g: Guilds) => ({ fromGuildId: g.from, toGuildId: g.stranger }),
    ],
    [
      'from a guild the caller does not manage',
      403,
      'NOT_GUILD_MANAGER',
      (g: Guilds) => ({ fromGuildId: g.stranger, toGuildId: g.to }),
    ],
    [
      'from a guild whose premium has ended',
      404,
      'NO_PREMIUM',
      (g: Guilds) => ({ fromGuildId: g.ended, toGuildId: g.to }),
    ],
    [
      'from a guild the caller never bought for',
      403,
      'NOT_YOUR_PREMIUM',
      (g: Guilds) => ({ fromGuildId: g.to, toGuildId: g.from }),
    ],
    [
      'from a guild whose premium someone else bought',
      403,
      'NOT_YOUR_PREMIUM',
      (g: Guilds) => ({ fromGuildId: g.bought, toGuildId: g.to }),
    ],
    [
      'with a malformed guild id',
      400,
      'VALIDATION_FAILED',
      (g: Guilds) => ({ fromGuildId: 'guild', toGuildId: g.to }),
    ],
  ])('refuses a transfer %s with %i %s, writing nothing', async (_label, status, code, body) => {
    const { buyer, from, to } = await buyerOfTwo();
    // Another manager of `bought` bought its premium.
    const bought = await manageGuild(buyer);
    const otherManager = await createUser();
    await manageGuild(otherManager, bought);
    await buyMonthFor(app(), otherManager, bought);
    // The buyer's premium of `ended` was ended by an operator.
    const ended = await manageGuild(buyer);
    await buyMonthFor(app(), buyer, ended);
    await revokePremium(app().core.sequelize, {
      target: { category: 'SERVER', guildId: ended },
      source: 'manual',
      actor: 'support',
      reason: 'chargeback',
      idempotencyKey: `end:${ended}`,
    });
    const guilds: Guilds = { from, to, bought, ended, stranger: snowflake() };
    const before = await snapshot(app());

    const reply = await transfer(buyer, body(guilds));

    expect(errorOf(reply)).toEqual({ status, code });
    expect(await snapshot(app())).toEqual(before);
  });

  it('refuses without a session', async () => {
    const reply = await post(app(), '/api/premium/transfer', {
      fromGuildId: snowflake(),
      toGuildId: snowflake(),
    });
    expect(errorOf(reply)).toEqual({ status: 401, code: 'AUTHENTICATION_REQUIRED' });
  });
});

interface Guilds {
  from: string;
  to: string;
  bought: string;
  ended: string;
  stranger: string;
}

describe('a refund after a transfer', () => {
  async function refund(orderId: string, paymentId: string): Promise<void> {
    const refunded = await refundAtProcessor(app(), paymentId);
    const reply = await deliver(app(), 'refund.processed', {
      refund: refunded,
      payment: paymentOf(app(), orderId),
    });
    expect(reply).toEqual({ status: 200, body: JSON.stringify({ status: 'processed' }) });
  }

  it('takes the days from the guild they were moved to', async () => {
    const { buyer, from, to, orderId, paymentId } = await buyerOfTwo();
    expect((await transfer(buyer, { fromGuildId: from, toGuildId: to })).statusCode).toBe(200);
    const fromExpiry = await expiryOf(from);

    await refund(orderId, paymentId);

    expect((await expiryOf(to)).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await expiryOf(from)).toEqual(fromExpiry);
    // The transfer revoked the purchase on `from` and granted its days anew on `to`: the refund takes those.
    const [movedIn] = await PremiumGrant.findAll({ where: { source: 'transfer', kind: 'grant' } });
    const revoke = await PremiumGrant.findOne({ where: { revokesGrantId: movedIn!.id } });
    expect(revoke).toMatchObject({ guildId: to, source: 'webhook', days: -30 });
    const last = await OutboxEvent.findOne({ order: [['id', 'DESC']] });
    expect(last!.payload).toMatchObject({ type: 'SERVER_PREMIUM_REMOVE', guildId: to, source: 'webhook' });
    expect((await buyer.reload()).premiumExpiresAt?.getTime() ?? 0).toBeLessThanOrEqual(Date.now());
  });

  it('refuses to move premium a refund took back, with 403 NOT_YOUR_PREMIUM, writing nothing', async () => {
    const { buyer, from, to, orderId, paymentId } = await buyerOfTwo();
    await refund(orderId, paymentId);
    const before = await snapshot(app());

    const reply = await transfer(buyer, { fromGuildId: from, toGuildId: to });

    expect(errorOf(reply)).toEqual({ status: 403, code: 'NOT_YOUR_PREMIUM' });
    expect(reply.json().error.message).toMatch(/refunded or revoked since/);
    expect(await snapshot(app())).toEqual(before);
  });

  it('leaves no premium anywhere when the refund and a transfer race, whichever wins', async () => {
    const { buyer, from, to, orderId, paymentId } = await buyerOfTwo();

    const [moved] = await Promise.all([
      transfer(buyer, { fromGuildId: from, toGuildId: to }),
      refund(orderId, paymentId),
    ]);

    // The refund first: the buyer's grant for `from` is taken back, so there is nothing of theirs to move.
    expect([200, 403]).toContain(moved.statusCode);
    if (moved.statusCode === 403) expect(errorOf(moved)).toEqual({ status: 403, code: 'NOT_YOUR_PREMIUM' });
    for (const guildId of [from, to]) {
      const record = await ServerPremium.findOne({ where: { guildId } });
      expect(record === null || record.expiresAt.getTime() <= Date.now()).toBe(true);
    }
    expect((await buyer.reload()).premiumExpiresAt?.getTime() ?? 0).toBeLessThanOrEqual(Date.now());
  });

  it('follows the days along several transfers, and leaves premium bought after a transfer where it was', async () => {
    const { buyer, from, to, orderId, paymentId } = await buyerOfTwo();
    const third = await manageGuild(buyer);
    expect((await transfer(buyer, { fromGuildId: from, toGuildId: to })).statusCode).toBe(200);
    // An operator moves it on (no cooldown); then the buyer buys the first guild a new month.
    await transferPremium(app().core.sequelize, {
      fromGuildId: to,
      toGuildId: third,
      by: { kind: 'operator' },
      actor: 'support',
      reason: 'ticket 7',
      idempotencyKey: 'test-onward',
    });
    await buyMonthFor(app(), buyer, from);
    const [fromExpiry, toExpiry] = [await expiryOf(from), await expiryOf(to)];

    await refund(orderId, paymentId);

    expect((await expiryOf(third)).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await expiryOf(from)).toEqual(fromExpiry);
    expect(await expiryOf(to)).toEqual(toExpiry);
    expect(fromExpiry.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
  });
});

import { randomUUID } from 'node:crypto';
import { seedPlan } from '../support/fixtures';
import { Redis } from 'ioredis';
import { Op } from 'sequelize';
import type { Registry } from 'prom-client';
import type { Config } from '../../src/core/config';
import { OutboxEvent } from '../../src/core/models';
import { revokePremium } from '../../src/core/premium/revoke';
import { uniqueName, useTestCore } from '../support/context';
import {
  createUser,
  grantMonth,
  insertOutboxRows,
  pendingRows,
  readStream,
  streamIds,
} from '../support/outbox-stream';
import { counterValue, useRelays } from '../support/relays';
import { pollUntil } from '../support/wait';

describe('outbox relay', () => {
  const core = useTestCore();
  const startRelay = useRelays();
  let redis: Redis;
  let config: Config;

  beforeAll(() => {
    redis = new Redis(core().config.redisUrl);
  });
  beforeEach(() => {
    config = { ...core().config, eventsStream: uniqueName('events') };
  });
  afterEach(() => redis.del(config.eventsStream));
  afterAll(() => redis.quit());

  const drained = () =>
    pollUntil('the outbox to drain', async () => (await pendingRows(core().sequelize)) === 0);

  /**
   * The rows the relays counted, once at least `expected`: a relay counts a batch after its COMMIT
   * answered, so the last batch is counted a moment after the outbox is seen drained.
   */
  const relayedCount = (registries: Registry[], expected: number) =>
    pollUntil(`the relays to count ${expected} rows`, async () => {
      const counts = await Promise.all(
        registries.map((registry) => counterValue(registry, 'premium_outbox_relayed_total')),
      );
      const total = counts.reduce((sum, count) => sum + count, 0);
      return total >= expected && total;
    });

  it('relays every event once, in order, in the format of docs/events.md, woken by the outbox notification', async () => {
    // The poll is far longer than the wait below: only the notification can wake the relay.
    startRelay(config, { tuning: { pollIntervalMs: 600_000 } });
    const { sequelize } = core();
    const user = await createUser();
    const buyer = await createUser();
    const userGrant = await grantMonth(sequelize, user.providerId);
    const serverGrant = await grantMonth(sequelize, buyer.providerId, {
      category: 'SERVER',
      guildId: '123456789012345678',
      plan: seedPlan('Yearly'),
    });
    const revoke = await revokePremium(sequelize, {
      target: { grantId: userGrant.grantId },
      source: 'manual',
      actor: 'test',
      reason: 'refund',
      idempotencyKey: randomUUID(),
    });

    await drained();
    const events = await readStream(redis, config.eventsStream);
    expect(events.map((event) => event.id)).toEqual([userGrant.eventId, serverGrant.eventId, revoke.eventId]);
    expect(events.map((event) => event.type)).toEqual([
      'USER_PREMIUM_ADD',
      'SERVER_PREMIUM_ADD',
      'USER_PREMIUM_REMOVE',
    ]);
    expect(events[0]?.payload).toEqual({
      eventId: userGrant.eventId,
      type: 'USER_PREMIUM_ADD',
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      providerId: user.providerId,
      guildId: null,
      category: 'USER',
      planType: 'Monthly',
      durationDays: 30,
      slots: 1,
      expiresAt: userGrant.expiresAt.toISOString(),
      version: userGrant.version,
      orderId: null,
      source: 'manual',
      tier: 'premium',
      features: {},
    });
    expect(events[1]?.payload).toMatchObject({
      eventId: serverGrant.eventId,
      providerId: buyer.providerId,
      guildId: '123456789012345678',
      category: 'SERVER',
      planType: 'Yearly',
      durationDays: 365,
    });
    expect(events[2]?.payload).toMatchObject({
      eventId: revoke.eventId,
      type: 'USER_PREMIUM_REMOVE',
      expiresAt: revoke.expiresAt.toISOString(),
      version: revoke.version,
      reason: 'refund',
    });
  });

  // 10,000 events: 3 s measured on the shared 2-core machine.
  it('relays 10,000 events through three concurrent relays, none lost and none duplicated', async () => {
    const relays = [1, 2, 3].map(() => startRelay(config, { tuning: { batchSize: 200 } }));
    const batches = await Promise.all(
      Array.from({ length: 10 }, () => insertOutboxRows(core().sequelize, 1000)),
    );

    await drained();
    const relayed = await streamIds(redis, config.eventsStream);
    expect(relayed).toHaveLength(10_000);
    expect(new Set(relayed)).toEqual(new Set(batches.flat()));
    await relayedCount(
      relays.map(({ registry }) => registry),
      10_000,
    );
    for (const { registry } of relays) {
      expect(await counterValue(registry, 'premium_outbox_relayed_total')).toBeGreaterThan(0);
    }
  }, 30_000);

  it.each([
    ['as one Lua script per batch, lingering after each wake-up', { scriptedAdds: true, lingerMs: 5 }],
    ['as pipelined XADDs', { scriptedAdds: false, lingerMs: 0 }],
  ])('relays every row once, in order, %s', async (_how, tuning) => {
    startRelay(config, { tuning: { ...tuning, batchSize: 100, pollIntervalMs: 600_000 } });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(...(await insertOutboxRows(core().sequelize, 50)));

    await drained();
    expect(await streamIds(redis, config.eventsStream)).toEqual(ids);
  });

  it('relays a backlog of full batches once each, in order, settling each batch while it sends the next', async () => {
    const ids = await insertOutboxRows(core().sequelize, 2000);
    const { registry } = startRelay(config, { tuning: { batchSize: 50 } });

    await drained();
    expect(await streamIds(redis, config.eventsStream)).toEqual(ids);
    expect(await relayedCount([registry], 2000)).toBe(2000);
  });

  it('takes a row committed late with a lower id within a poll interval, while a backlog drains', async () => {
    const { sequelize } = core();
    const late = await sequelize.transaction();
    const [[lateRow]] = (await sequelize.query(
      `INSERT INTO outbox (event_id, type, aggregate_key, payload)
       SELECT id, 'USER_PREMIUM_ADD', 'user:late', jsonb_build_object('eventId', id, 'type', 'USER_PREMIUM_ADD')
       FROM gen_random_uuid() id RETURNING event_id`,
      { transaction: late },
    )) as [{ event_id: string }[], unknown];
    const backlog = await insertOutboxRows(sequelize, 10_000);
    startRelay(config, { tuning: { batchSize: 10, pollIntervalMs: 50 } });
    await pollUntil(
      'the relay to start on the backlog',
      async () => (await redis.xlen(config.eventsStream)) > 0,
    );
    await late.commit();

    await drained();
    const relayed = await streamIds(redis, config.eventsStream);
    expect(relayed.filter((id) => id !== lateRow!.event_id)).toEqual(backlog);
    // Claims after the batches in hand would reach it only once the backlog is drained.
    expect(relayed.indexOf(lateRow!.event_id)).toBeLessThan(backlog.length / 2);
  }, 30_000);

  it('relays every row at least once, first seen in order, when its database connections are cut', async () => {
    const { sequelize } = core();
    const ids = await insertOutboxRows(sequelize, 3000);
    const { registry } = startRelay(config, {
      tuning: { batchSize: 50, outageRetry: { baseMs: 5, maxMs: 20 } },
    });
    // Once it is at work (a cut before it connected hits nothing, and counts no error), cuts whatever
    // the relay is doing: a claim, a batch being sent or one being settled.
    await pollUntil('the relay to start', async () => (await redis.xlen(config.eventsStream)) > 0);
    for (let cut = 0; cut < 5 && (await pendingRows(sequelize)) > 0; cut++) {
      await sequelize.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'premium-relay' AND datname = current_database()`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    await drained();
    const relayed = await streamIds(redis, config.eventsStream);
    expect([...new Set(relayed)]).toEqual(ids);
    expect(await counterValue(registry, 'premium_outbox_round_errors_total')).toBeGreaterThan(0);
  });

  it('sets a row that fails on its own aside as dead after its attempts, while the rest flow', async () => {
    const { sequelize } = core();
    const [first] = await insertOutboxRows(sequelize, 1);
    const [second] = await insertOutboxRows(sequelize, 1);
    const [oversized] = await insertOutboxRows(sequelize, 1, 4096);
    const [third] = await insertOutboxRows(sequelize, 1);
    startRelay(config, {
      tuning: {
        maxAttempts: 3,
        maxPayloadBytes: 2048,
        rowRetry: { baseMs: 10, maxMs: 20 },
        pollIntervalMs: 20,
      },
    });

    const dead = await pollUntil('the failing rows to be set aside', async () => {
      const rows = await OutboxEvent.findAll({
        where: { deadAt: { [Op.ne]: null } },
        order: [['id', 'ASC']],
      });
      return rows.length === 1 && (await pendingRows(sequelize)) === 0 && rows;
    });
    expect(await streamIds(redis, config.eventsStream)).toEqual([first, second, third]);
    expect(dead.map(({ eventId, attempts, lastError }) => ({ eventId, attempts, lastError }))).toEqual([
      { eventId: oversized, attempts: 3, lastError: 'payload is larger than 2048 bytes' },
    ]);
  });

  it('holds every row, counting no attempts, while Redis refuses the stream key itself', async () => {
    await redis.set(config.eventsStream, 'not a stream');
    const ids = await insertOutboxRows(core().sequelize, 5);
    const { registry } = startRelay(config, { tuning: { outageRetry: { baseMs: 10, maxMs: 50 } } });

    await pollUntil('three refused rounds', async () => {
      return (await counterValue(registry, 'premium_outbox_redis_errors_total')) >= 3;
    });
    const rows = await OutboxEvent.findAll({ attributes: ['attempts', 'deadAt'] });
    expect(rows.map(({ attempts, deadAt }) => ({ attempts, deadAt }))).toEqual(
      ids.map(() => ({ attempts: 0, deadAt: null })),
    );

    await redis.del(config.eventsStream);
    await drained();
    expect(await streamIds(redis, config.eventsStream)).toEqual(ids);
  });
});

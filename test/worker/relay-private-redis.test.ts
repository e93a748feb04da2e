import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Op } from 'sequelize';
import type { Config } from '../../src/core/config';
import { OutboxEvent } from '../../src/core/models';
import { uniqueName, useTestCore } from '../support/context';
import { createUser, grantMonth, insertOutboxRows, pendingRows, streamIds } from '../support/outbox-stream';
import { PrivateRedis } from '../support/private-redis';
import { counterValue, recordingLogger, useRelays } from '../support/relays';
import { pollUntil } from '../support/wait';

// A redis-server of its own, stopped and restarted under the relay: seconds a test.
jest.setTimeout(60_000);

describe('outbox relay against a redis-server of its own', () => {
  const core = useTestCore();
  const startRelay = useRelays();
  let server: PrivateRedis;
  let redis: Redis;
  let config: Config;

  async function startServer(extraArgs: string[] = []): Promise<void> {
    server = await PrivateRedis.start(extraArgs);
    redis = new Redis(server.url);
    redis.on('error', () => undefined);
    config = { ...core().config, redisUrl: server.url, eventsStream: uniqueName('events') };
  }

  afterEach(async () => {
    redis.disconnect();
    await server.stop();
  });

  const drained = () =>
    pollUntil('the outbox to drain', async () => (await pendingRows(core().sequelize)) === 0);

  it('keeps grants committing while Redis is down, and drains the backlog once it is back', async () => {
    await startServer();
    startRelay(config, { tuning: { outageRetry: { baseMs: 20, maxMs: 200 } } });
    const { sequelize } = core();
    const user = await createUser();
    const before = await grantMonth(sequelize, user.providerId);
    await pollUntil(
      'the first event',
      async () => (await streamIds(redis, config.eventsStream)).length === 1,
    );

    await server.stop();
    const during: string[] = [];
    for (let i = 0; i < 20; i++) during.push((await grantMonth(sequelize, user.providerId)).eventId);
    expect(await pendingRows(sequelize)).toBe(20);

    await server.restart();
    await drained();
    // The restarted server saves nothing, so it holds exactly what was relayed after the outage.
    expect(await streamIds(redis, config.eventsStream)).toEqual(during);
    expect(during).not.toContain(before.eventId);
  });

  it('drops its connection when Redis hangs, so that a hang adds at most one batch of duplicates', async () => {
    await startServer();
    const batchSize = 50;
    const { logger, messages } = recordingLogger();
    const { registry } = startRelay(config, {
      logger,
      tuning: { batchSize, redisCommandTimeoutMs: 200, outageRetry: { baseMs: 20, maxMs: 100 } },
    });
    const { sequelize } = core();
    const connected = () => counterValue(registry, 'premium_outbox_redis_connected');
    await pollUntil('the relay to connect', async () => (await connected()) === 1);

    server.pause();
    const events = await insertOutboxRows(sequelize, 400);
    try {
      await pollUntil('the relay to give up on the hung connection', async () => (await connected()) === 0);
      // Long enough for many retries, had the relay kept resending on the hung connection.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await connected()).toBe(0);
      expect(await pendingRows(sequelize)).toBe(400);
      expect(messages).toContainEqual(
        expect.stringMatching(/^Redis did not answer an XADD in time.*at-least-once/),
      );
    } finally {
      server.resume();
    }

    await drained();
    const relayed = await streamIds(redis, config.eventsStream);
    expect([...new Set(relayed)].sort()).toEqual([...events].sort());
    expect(relayed.length - events.length).toBeLessThanOrEqual(batchSize);
    // Every duplicate is one of the re-sends counted: the timed-out batch, at most.
    const resent = await counterValue(registry, 'premium_outbox_resent_after_timeout_total');
    expect(resent).toBeGreaterThanOrEqual(Math.max(1, relayed.length - events.length));
    expect(resent).toBeLessThanOrEqual(batchSize);
    expect(await connected()).toBe(1);
  });

  it.each([
    ['without an append-only file, it warns', 'no', true],
    ['with one, it does not', 'yes', false],
  ])('checks the persistence of the Redis it connects to: %s', async (_, appendOnly, warned) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'premium-redis-'));
    try {
      await startServer(['--appendonly', appendOnly, '--dir', dir]);
      const { logger, messages } = recordingLogger();
      startRelay(config, { logger });
      await insertOutboxRows(core().sequelize, 1);
      await drained();
      expect(messages.some((message) => message.startsWith('Redis has no append-only file'))).toBe(warned);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('relays with plain XADDs where Redis does not permit scripts', async () => {
    await startServer(['--user', 'default', 'on', 'nopass', '~*', '&*', '+@all', '-eval', '-evalsha']);
    const ids = await insertOutboxRows(core().sequelize, 5);
    startRelay(config, { tuning: { pollIntervalMs: 20 } });

    await drained();
    expect(await streamIds(redis, config.eventsStream)).toEqual(ids);
  });

  it('sets an entry Redis refuses on its own aside as dead, while the rest flow', async () => {
    await startServer(['--proto-max-bulk-len', '1mb']);
    const { sequelize } = core();
    const [tooLarge] = await insertOutboxRows(sequelize, 1, 1_100_000);
    const others = await insertOutboxRows(sequelize, 5);
    startRelay(config, {
      tuning: {
        // Let the entry through to Redis, which drops the connection after refusing it.
        maxPayloadBytes: 4 * 1024 * 1024,
        maxAttempts: 3,
        rowRetry: { baseMs: 10, maxMs: 20 },
        outageRetry: { baseMs: 10, maxMs: 50 },
        pollIntervalMs: 20,
      },
    });

    const dead = await pollUntil('the refused row to be set aside', async () => {
      const rows = await OutboxEvent.findAll({ where: { deadAt: { [Op.ne]: null } } });
      return rows.length === 1 && (await pendingRows(sequelize)) === 0 && rows[0];
    });
    expect(await streamIds(redis, config.eventsStream)).toEqual(others);
    expect(dead).toMatchObject({
      eventId: tooLarge,
      attempts: 3,
      lastError: expect.stringMatching(/Protocol error/),
    });
  });
});

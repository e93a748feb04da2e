import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { PremiumConsumer, type PremiumConsumerOptions, type PremiumEvent } from '../../src/bot-kit';
import { testConfig, uniqueName } from '../support/context';
import { snowflake } from '../support/fixtures';
import { pollUntil } from '../support/wait';

/** A guild's event as the service writes it; USER events with `category: 'USER', guildId: null`. */
export function guildEvent(overrides: Partial<PremiumEvent> & Pick<PremiumEvent, 'type'>): PremiumEvent {
  const category = overrides.type.startsWith('USER_') ? 'USER' : 'SERVER';
  return {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    providerId: snowflake(),
    guildId: category === 'SERVER' ? snowflake() : null,
    category,
    planType: 'Monthly',
    durationDays: 30,
    slots: 1,
    expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    version: 1,
    orderId: null,
    source: 'manual',
    ...overrides,
  } as PremiumEvent;
}

/**
 * One Redis connection per consumer, all closed after each test; a stream of the test's own, or the
 * one `streamName` gives (the service's EVENTS_STREAM).
 */
export function useKit(streamName: () => string = () => uniqueName('kit')) {
  const connections: Redis[] = [];
  const consumers: PremiumConsumer[] = [];
  let stream = '';
  let admin: Redis;
  beforeAll(() => {
    admin = new Redis(testConfig().redisUrl);
  });
  beforeEach(() => {
    stream = streamName();
  });
  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((consumer) => consumer.stop()));
    for (const connection of connections.splice(0)) connection.disconnect();
    await admin.del(stream);
  });
  afterAll(() => admin.disconnect());

  return {
    stream: () => stream,
    admin: () => admin,
    /** A started consumer on the test's stream; `kill()` drops its connection as a crash would. */
    async start(options: Partial<PremiumConsumerOptions> & Pick<PremiumConsumerOptions, 'consumer'>) {
      const redis = new Redis(testConfig().redisUrl, { maxRetriesPerRequest: null });
      connections.push(redis);
      const consumer = new PremiumConsumer({
        redis,
        stream,
        group: 'bot',
        blockMs: 100,
        log: () => undefined,
        ...options,
      });
      await consumer.start();
      consumers.push(consumer);
      return {
        consumer,
        // Its handler in hand never resolves and its connection is gone: nothing more is acknowledged.
        kill: () => {
          consumers.splice(consumers.indexOf(consumer), 1);
          redis.disconnect();
        },
      };
    },
    publish(event: PremiumEvent | { eventId: string; type: string; payload: string }) {
      const payload = 'payload' in event ? event.payload : JSON.stringify(event);
      return admin.xadd(stream, '*', 'id', event.eventId, 'type', event.type, 'payload', payload);
    },
    /** Appends all at once (MULTI), so that a waiting consumer reads them in one batch. */
    async publishAll(events: PremiumEvent[]) {
      const multi = admin.multi();
      for (const event of events)
        multi.xadd(stream, '*', 'id', event.eventId, 'type', event.type, 'payload', JSON.stringify(event));
      await multi.exec();
    },
    /** Entries delivered to the group and not yet acknowledged. */
    async pending(): Promise<number> {
      const [count] = (await admin.xpending(stream, 'bot')) as [number];
      return count;
    },
    /** Waits until the group has been given every entry and acknowledged them all. */
    async drained(): Promise<void> {
      await pollUntil('the group to acknowledge every entry', async () => {
        const groups = (await admin.xinfo('GROUPS', stream)) as unknown[][];
        const info = groups[0]!;
        const field = (name: string) => info[info.indexOf(name) + 1];
        const length = await admin.xlen(stream);
        return field('entries-read') === length && field('pending') === 0;
      });
    },
  };
}

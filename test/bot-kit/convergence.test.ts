import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { QueryTypes, type Transaction } from 'sequelize';
import type { PremiumConsumer, PremiumEvent, Target } from '../../src/bot-kit';
import { OutboxEvent } from '../../src/core/models';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { grantPremium } from '../../src/core/premium/grant';
import { revokePremium } from '../../src/core/premium/revoke';
import { buildApp } from '../../src/server/app';
import { useTestCore } from '../support/context';
import { createUser, grantRequest, snowflake } from '../support/fixtures';
import { pollUntil } from '../support/wait';
import { pendingRows } from '../support/outbox-stream';
import { useRelays } from '../support/relays';
import { guildEvent, useKit } from './support';

const TOKEN = randomBytes(24).toString('hex');

/** Compile-time: every event the service writes is an event the kit reads. */
const _writtenIsRead = (payload: PremiumEventPayload): PremiumEvent =>
  payload as PremiumEvent & typeof payload;

interface DatabaseRecord {
  key: string;
  category: 'USER' | 'SERVER';
  expires_at: Date;
  version: number;
  active: boolean;
}

const keyOf = (target: Target) =>
  'guildId' in target ? `SERVER:${target.guildId}` : `USER:${target.providerId}`;

/** The service's records, as the bot should come to know them. */
describe('bot-kit against the service (database, relay, bot API)', () => {
  const core = useTestCore({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });
  const kit = useKit(() => core().config.eventsStream);
  const relay = useRelays();
  let api: FastifyInstance;
  let apiRedis: Redis;
  let apiUrl: string;

  beforeAll(async () => {
    apiRedis = new Redis(core().config.redisUrl);
    api = await buildApp({ core: core(), redis: apiRedis });
    apiUrl = await api.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await api?.close();
    apiRedis?.disconnect();
  });

  async function databaseRecords(): Promise<DatabaseRecord[]> {
    return core().sequelize.query<DatabaseRecord>(
      `SELECT 'SERVER:' || guild_id AS key, 'SERVER' AS category, expires_at, version, expires_at > now() AS active
       FROM server_premiums WHERE version > 0
       UNION ALL
       SELECT 'USER:' || u.provider_id, 'USER', r.expires_at, r.version, r.expires_at > now()
       FROM user_premiums r JOIN users u ON u.id = r.user_id WHERE r.version > 0`,
      { type: QueryTypes.SELECT },
    );
  }

  const relayed = () =>
    pollUntil('the outbox to be relayed', async () => (await pendingRows(core().sequelize)) === 0);

  async function guildBuyer() {
    const buyer = await createUser();
    return { guildId: snowflake(), buyer: buyer.providerId };
  }
  const grantGuild = (guild: { guildId: string; buyer: string }, transaction?: Transaction) =>
    grantPremium(
      core().sequelize,
      grantRequest(guild.buyer, { category: 'SERVER', guildId: guild.guildId }),
      { transaction },
    );
  const grantUser = (providerId: string, transaction?: Transaction) =>
    grantPremium(core().sequelize, grantRequest(providerId), { transaction });
  const end = (target: Target, transaction?: Transaction) =>
    revokePremium(
      core().sequelize,
      {
        target: 'guildId' in target ? { category: 'SERVER', ...target } : { category: 'USER', ...target },
        source: 'manual',
        actor: 'test',
        reason: 'test',
        idempotencyKey: `end:${Math.random()}`,
      },
      { transaction },
    );

  it('converges on the database from a snapshot that overlaps the stream', async () => {
    relay(core().config);
    const guilds = await Promise.all(Array.from({ length: 6 }, guildBuyer));
    const users = await Promise.all(Array.from({ length: 4 }, async () => (await createUser()).providerId));
    for (const guild of guilds) await grantGuild(guild);
    for (const user of users) await grantUser(user);
    await relayed();
    // A group made by an earlier deploy of the bot: the changes below reach it through the stream, and
    // the snapshot taken at start holds them too.
    await kit.admin().xgroup('CREATE', kit.stream(), 'bot', '$');
    await grantGuild(guilds[0]!);
    await grantGuild(guilds[1]!);
    await grantUser(users[0]!);
    await end({ guildId: guilds[2]!.guildId });
    await relayed();

    const handled: PremiumEvent[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      api: { url: apiUrl, token: TOKEN },
      handler: (event) => void handled.push(event),
    });
    expect(consumer.stats.snapshotRecords).toBe(9);
    // Before the changes below: the REMOVE of guilds[2] (ended before the start, so not in the snapshot)
    // is checked against the service, which would otherwise already hold its next version.
    await kit.drained();
    await grantGuild(guilds[3]!);
    await end({ providerId: users[1]! });
    await grantGuild(guilds[2]!);
    await relayed();
    await kit.drained();

    expect(handled.map((event) => [event.type, event.guildId ?? event.providerId, event.version])).toEqual([
      ['SERVER_PREMIUM_REMOVE', guilds[2]!.guildId, 2],
      ['SERVER_PREMIUM_ADD', guilds[3]!.guildId, 2],
      ['USER_PREMIUM_REMOVE', users[1], 2],
      ['SERVER_PREMIUM_ADD', guilds[2]!.guildId, 3],
    ]);
    expect(consumer.stats).toMatchObject({ outdated: 3, handled: 4, duplicates: 0 });
    const records = await databaseRecords();
    expect(records).toHaveLength(10);
    expect(remembered([consumer], records)).toEqual(expected(records));
  });

  /** A guild granted (version 1) then ended (version 2), and both events as the relay would send them. */
  async function grantedThenEnded() {
    const guild = await guildBuyer();
    await grantGuild(guild);
    await end({ guildId: guild.guildId });
    const [added, removed] = (await OutboxEvent.findAll({ order: [['id', 'ASC']] })).map(
      (row) => row.payload as unknown as PremiumEvent,
    );
    return { guildId: guild.guildId, added: added!, removed: removed! };
  }

  it('drops an event relayed late, after a newer one of its record reached the stream before the group existed', async () => {
    const { guildId, added, removed } = await grantedThenEnded();
    // The relay sent the REMOVE; the ADD only after a retry, once the bot's group existed.
    await kit.publish(removed);
    const handled: PremiumEvent[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      api: { url: apiUrl, token: TOKEN },
      handler: (event) => void handled.push(event),
    });
    expect(consumer.stats.snapshotRecords).toBe(0);

    await kit.publish(added);
    await kit.drained();

    expect(handled).toEqual([]);
    expect(consumer.stats).toMatchObject({ outdated: 1, handled: 0 });
    expect(consumer.isPremium({ guildId })).toBe(false);
  });

  it('takes such an event as current when the service cannot be asked, and says so; asks nothing about later ones', async () => {
    const { added } = await grantedThenEnded();
    // Well after the start, beyond any clock skew: no event of that record can have come before the snapshot.
    const later = guildEvent({
      type: 'SERVER_PREMIUM_ADD',
      occurredAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    });
    const ownApi = await buildApp({ core: core(), redis: apiRedis });
    const logged: string[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      api: { url: await ownApi.listen({ port: 0, host: '127.0.0.1' }), token: TOKEN },
      log: (message) => void logged.push(message),
    });
    await ownApi.close();

    await kit.publish(added);
    await kit.publish(later);
    await kit.drained();

    expect(consumer.stats).toMatchObject({ outdated: 0, handled: 2 });
    expect(logged).toEqual([expect.stringContaining(`could not ask the service about ${added.eventId}`)]);
  });

  // Minutes on a loaded 2-core machine: the 10,000 changes through grantPremium dominate, not the kit.
  it('delivers 10,000 changes through three consumers: each applied once, the same state as the database', async () => {
    const guilds = await Promise.all(Array.from({ length: 200 }, guildBuyer));
    const users = await Promise.all(Array.from({ length: 200 }, async () => (await createUser()).providerId));
    const targets: Target[] = [
      ...guilds.map(({ guildId }) => ({ guildId })),
      ...users.map((providerId) => ({ providerId })),
    ];

    // The bot's own store, shared by its three processes: it too keeps the newest version only.
    const store = new Map<string, { version: number; expiresAt: string }>();
    const handlerCalls = new Map<string, number>();
    const handler = (event: PremiumEvent) => {
      handlerCalls.set(event.eventId, (handlerCalls.get(event.eventId) ?? 0) + 1);
      const key = event.category === 'SERVER' ? `SERVER:${event.guildId}` : `USER:${event.providerId}`;
      if ((store.get(key)?.version ?? 0) < event.version)
        store.set(key, { version: event.version, expiresAt: event.expiresAt });
    };
    const consumers = await Promise.all(
      ['a', 'b', 'c'].map(async (name) => (await kit.start({ consumer: name, handler })).consumer),
    );
    // Two relays: entries of one record may reach the stream out of order.
    relay(core().config);
    relay(core().config);

    const CHANGES = 10_000;
    const PER_TRANSACTION = 20;
    let next = 0;
    // Twenty changes of distinct records per transaction (a commit each would take minutes here).
    const work = async () => {
      for (let first = next; first < CHANGES; first = next) {
        next += PER_TRANSACTION;
        await core().sequelize.transaction(async (transaction) => {
          for (let i = first; i < first + PER_TRANSACTION; i++) {
            const index = i % targets.length;
            const target = targets[index]!;
            // Every seventh change ends a premium granted in an earlier round.
            if (i % 7 === 6 && i >= targets.length) await end(target, transaction);
            else if ('guildId' in target) await grantGuild(guilds[index]!, transaction);
            else await grantUser(target.providerId, transaction);
          }
        });
      }
    };
    await Promise.all(Array.from({ length: 8 }, work));
    await relayed();
    expect(await kit.admin().xlen(kit.stream())).toBe(CHANGES);
    await kit.drained();

    const stats = consumers.map((consumer) => consumer.stats);
    const total = (name: keyof PremiumConsumer['stats']) => stats.reduce((sum, s) => sum + s[name], 0);
    expect(total('handled') + total('outdated')).toBe(CHANGES);
    expect(total('unparseable') + total('handlerFailures') + total('duplicates')).toBe(0);
    expect([...handlerCalls.values()].every((calls) => calls === 1)).toBe(true);
    expect(handlerCalls.size).toBe(total('handled'));
    for (const s of stats) expect(s.handled).toBeGreaterThan(0);

    const records = await databaseRecords();
    expect(records).toHaveLength(400);
    expect(Object.fromEntries(store)).toEqual(
      Object.fromEntries(
        records.map((r) => [r.key, { version: r.version, expiresAt: r.expires_at.toISOString() }]),
      ),
    );
    expect(remembered(consumers, records)).toEqual(expected(records));
  }, 600_000);

  /** What the consumers hold of each database record: the newest, when several hold one. */
  function remembered(consumers: PremiumConsumer[], records: DatabaseRecord[]) {
    return records.map(({ key, category }) => {
      const id = key.slice(key.indexOf(':') + 1);
      const target: Target = category === 'SERVER' ? { guildId: id } : { providerId: id };
      const newest = consumers.reduce((best, consumer) =>
        (consumer.record(target)?.version ?? 0) > (best.record(target)?.version ?? 0) ? consumer : best,
      );
      const held = newest.record(target);
      return {
        key: keyOf(target),
        version: held?.version,
        expiresAt: held?.expiresAt.toISOString(),
        premium: newest.isPremium(target),
      };
    });
  }

  function expected(records: DatabaseRecord[]) {
    return records.map((r) => ({
      key: r.key,
      version: r.version,
      expiresAt: r.expires_at.toISOString(),
      premium: r.active,
    }));
  }
});

import { Redis } from 'ioredis';
import pg from 'pg';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEFAULT_TUNING } from '../../src/worker/relay/outbox-relay';
import { addEntry, type StreamEntry } from '../../src/worker/relay/stream-publisher';
import { whileAlive } from '../children';
import type { BenchEnvironment } from '../environment';
import type { Section } from '../report';
import { pollUntil } from '../../test/support/wait';
import { preciseNow } from '../wait';
import { sampleEvents } from './events';
import { outboxIsEmpty, pendingEntries, resetOutbox, seedOutbox } from './outbox';
import { startRelays, stopRelays, STREAM_MAX_LEN } from './relays';

/** BENCH_DRAIN_EVENTS: a smaller backlog checks the bench itself quickly; figures need the default. */
const EVENTS = Number(process.env.BENCH_DRAIN_EVENTS ?? 50_000);
/** Relay processes, as worker replicas would run them. */
const RELAY_COUNTS = [1, 2, 3] as const;
const RELAY_NAMES = { 1: 'one relay', 2: 'two relays', 3: 'three relays' } as const;
const BATCH = DEFAULT_TUNING.batchSize;

/** The least a claim needs to hand rows to Redis, as the relay claims them (locked, oldest first). */
const BARE_CLAIM = `
  SELECT id, event_id, type, payload::text AS payload FROM outbox
  WHERE dead_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`;
const BARE_DELETE = 'DELETE FROM outbox WHERE id = ANY($1::bigint[])';

const perSecond = (count: number, sinceMs: number) => count / ((preciseNow() - sinceMs) / 1000);

/** From the commit of the backlog to the deletion of its last row, with `relayCount` relay processes. */
async function relayDrain(env: BenchEnvironment, events: PremiumEventPayload[], relayCount: number) {
  const stream = env.key(`drain-${relayCount}`);
  const relays = await startRelays(env, stream, relayCount);
  try {
    const committedAt = await seedOutbox(env.pool, events);
    const allAdded = async () => (await env.redis.xlen(stream)) >= events.length;
    await whileAlive(relays, pollUntil('the relays to add every entry', allAdded, { intervalMs: 5 }));
    await whileAlive(
      relays,
      pollUntil('the outbox to empty', () => outboxIsEmpty(env.pool), { intervalMs: 2 }),
    );
    const rate = perSecond(events.length, committedAt);
    const added = await env.redis.xlen(stream);
    if (added !== events.length)
      throw new Error(`the relays added ${added} entries for ${events.length} rows`);
    return rate;
  } finally {
    await stopRelays(relays);
    await env.redis.del(stream);
    await resetOutbox(env.pool);
  }
}

/** The same entries in pipelined XADD batches of the relay's size, on a connection of its own, no database. */
async function redisLimit(env: BenchEnvironment, entries: StreamEntry[]): Promise<number> {
  const stream = env.key('drain-bare-redis');
  const redis = new Redis(env.redisUrl);
  try {
    await redis.ping();
    const startedAt = preciseNow();
    for (let first = 0; first < entries.length; first += BATCH) {
      const pipeline = redis.pipeline();
      for (const entry of entries.slice(first, first + BATCH))
        addEntry(pipeline, stream, STREAM_MAX_LEN, entry);
      const failure = (await pipeline.exec())?.find(([error]) => error)?.[0];
      if (failure) throw failure;
    }
    return perSecond(entries.length, startedAt);
  } finally {
    redis.disconnect();
    await env.redis.del(stream);
  }
}

/**
 * The same rows claimed and deleted in the relay's batches, no Redis: one transaction per batch on a
 * pipelining connection without waiting for the WAL flush at commit, as the relay's own connection.
 */
async function postgresLimit(env: BenchEnvironment, events: PremiumEventPayload[]): Promise<number> {
  await seedOutbox(env.pool, events);
  const client = new pg.Client({
    connectionString: env.databaseUrl,
    pipeline: true,
    options: '-c synchronous_commit=off',
  });
  // Losing the connection fails the query in flight, which reports it; the event must not crash the bench.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const startedAt = preciseNow();
    let deleted = 0;
    for (;;) {
      const [, { rows }] = await Promise.all([
        client.query('BEGIN'),
        client.query<{ id: string }>({ name: 'claim', text: BARE_CLAIM, values: [BATCH] }),
      ]);
      const ids = rows.map((row) => row.id);
      const deletion =
        ids.length > 0 ? [client.query({ name: 'delete', text: BARE_DELETE, values: [ids] })] : [];
      await Promise.all([...deletion, client.query('COMMIT')]);
      if (ids.length === 0) break;
      deleted += ids.length;
    }
    if (deleted !== events.length) throw new Error(`claimed ${deleted} rows of ${events.length}`);
    return perSecond(deleted, startedAt);
  } finally {
    await client.end();
    await resetOutbox(env.pool);
  }
}

/** A backlog drained by one, two and three relays, against the bare Redis and Postgres limits. */
export async function benchRelayDrain(env: BenchEnvironment, runs: number): Promise<Section> {
  const events = sampleEvents(EVENTS);
  await seedOutbox(env.pool, events);
  const entries = await pendingEntries(env.pool);
  await resetOutbox(env.pool);

  const relays = new Map(RELAY_COUNTS.map((count) => [count, [] as number[]]));
  const redis: number[] = [];
  const postgres: number[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const count of RELAY_COUNTS) relays.get(count)!.push(await relayDrain(env, events, count));
    redis.push(await redisLimit(env, entries));
    postgres.push(await postgresLimit(env, events));
    console.log(`  relay drain run ${run}/${runs} done`);
  }
  const ratio = (relay: number[]) => relay.map((rate, i) => rate / Math.min(redis[i]!, postgres[i]!));
  // A relay claims, then adds, then deletes: each batch pays the Postgres time and the Redis time in turn,
  // so one relay can at best reach the harmonic combination of the two limits.
  const serialCeiling = redis.map((rate, i) => 1 / (1 / rate + 1 / postgres[i]!));
  const one = relays.get(1)!;
  const payloadBytes =
    entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.payload), 0) / entries.length;
  return {
    title: 'Relay drain',
    setup: `${EVENTS.toLocaleString('en-US')} pending rows, ${Math.round(payloadBytes)}-byte payloads, batches of ${BATCH}`,
    figures: [
      ...RELAY_COUNTS.map((count) => ({
        name: RELAY_NAMES[count],
        unit: 'events/s',
        runs: relays.get(count)!,
        ...(count === 1 ? { target: { op: '>=', value: 20_000 } as const } : {}),
      })),
      { name: 'bare Redis: pipelined XADD', unit: 'events/s', runs: redis },
      { name: 'bare Postgres: claim + delete', unit: 'events/s', runs: postgres },
      ...RELAY_COUNTS.map((count) => ({
        name: `${RELAY_NAMES[count]} / min(bare)`,
        unit: 'ratio',
        runs: ratio(relays.get(count)!),
        ...(count === 1 ? { target: { op: '>=', value: 0.5 } as const } : {}),
      })),
      {
        name: 'one relay / serial ceiling 1/(1/Redis + 1/Postgres)',
        unit: 'ratio',
        runs: one.map((rate, i) => rate / serialCeiling[i]!),
      },
    ],
  };
}

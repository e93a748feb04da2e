import { Redis } from 'ioredis';
import pg from 'pg';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { DEFAULT_TUNING, type RelayTuning } from '../../src/worker/relay/outbox-relay';
import { addEntry, type StreamEntry } from '../../src/worker/relay/stream-publisher';
import { whileAlive } from '../children';
import { CpuMeter, type CpuUse } from '../cpu';
import type { BenchEnvironment } from '../environment';
import type { Figure, Section } from '../report';
import { pollUntil } from '../../test/support/wait';
import { preciseNow } from '../wait';
import { sampleEvents } from './events';
import { outboxIsEmpty, pendingEntries, resetOutbox, seedOutbox } from './outbox';
import { startRelays, stopRelays, STREAM_MAX_LEN } from './relays';

/** BENCH_DRAIN_EVENTS: a smaller backlog checks the bench itself quickly; figures need the default. */
const EVENTS = Number(process.env.BENCH_DRAIN_EVENTS ?? 50_000);
/** Relay processes, as worker replicas would run them, with the default tuning or another. */
interface Variant {
  name: string;
  count: number;
  tuning?: Partial<RelayTuning>;
}
const ONE: Variant = { name: 'one relay', count: 1 };
const SCRIPTED: Variant = { name: 'one relay, Lua-script batches', count: 1, tuning: { scriptedAdds: true } };
const PIPELINED: Variant = { name: 'one relay, pipelined XADDs', count: 1, tuning: { scriptedAdds: false } };
const VARIANTS: Variant[] = [
  ONE,
  { name: 'two relays', count: 2 },
  { name: 'three relays', count: 3 },
  DEFAULT_TUNING.scriptedAdds ? PIPELINED : SCRIPTED,
];
const BATCH = DEFAULT_TUNING.batchSize;

/** The least a claim needs to hand rows to Redis, as the relay claims them (locked, oldest first). */
const BARE_CLAIM = `
  SELECT id, event_id, type, payload::text AS payload FROM outbox
  WHERE dead_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`;
const BARE_DELETE = 'DELETE FROM outbox WHERE id = ANY($1::bigint[])';

const perSecond = (count: number, sinceMs: number) => count / ((preciseNow() - sinceMs) / 1000);

/** A drain's rate and CPU per 1,000 events, in ms: the relays, PostgreSQL, Redis and the whole machine. */
interface Drain {
  rate: number;
  cpu: { relays: number; postgres: number; redis: number; machine: number };
}

/** `client`: the bench's main process did the work (a bare limit), rather than only watch (a relay drain). */
function drainOf(rate: number, events: number, used: CpuUse, client: 'bench' | 'relays'): Drain {
  const relays = Object.values(used.processes).reduce((sum, seconds) => sum + seconds, 0);
  const per = (seconds: number) => (seconds * 1e6) / events;
  return {
    rate,
    cpu: {
      relays: per(relays),
      postgres: per(used.postgres),
      redis: per(used.redis),
      machine: per(relays + used.postgres + used.redis + (client === 'bench' ? used.bench : 0)),
    },
  };
}

/** From the commit of the backlog to the deletion of its last row, with `relayCount` relay processes. */
async function relayDrain(
  env: BenchEnvironment,
  events: PremiumEventPayload[],
  variant: Variant,
): Promise<Drain> {
  const stream = env.key('drain');
  const relays = await startRelays(env, stream, variant.count, variant.tuning);
  const meter = new CpuMeter(env, Object.fromEntries(relays.map((relay) => [relay.name, relay.pid])));
  try {
    const since = await meter.start();
    const committedAt = await seedOutbox(env.pool, events);
    const allAdded = async () => (await env.redis.xlen(stream)) >= events.length;
    await whileAlive(relays, pollUntil('the relays to add every entry', allAdded, { intervalMs: 5 }));
    await whileAlive(
      relays,
      pollUntil('the outbox to empty', () => outboxIsEmpty(env.pool), { intervalMs: 2 }),
    );
    const rate = perSecond(events.length, committedAt);
    const used = await meter.stop(since);
    const added = await env.redis.xlen(stream);
    if (added !== events.length)
      throw new Error(`the relays added ${added} entries for ${events.length} rows`);
    return drainOf(rate, events.length, used, 'relays');
  } finally {
    await stopRelays(relays);
    await env.redis.del(stream);
    await resetOutbox(env.pool);
  }
}

/** The same entries in pipelined XADD batches of the relay's size, on a connection of its own, no database. */
async function redisLimit(env: BenchEnvironment, entries: StreamEntry[]): Promise<Drain> {
  const stream = env.key('drain-bare-redis');
  const redis = new Redis(env.redisUrl);
  const meter = new CpuMeter(env, {});
  try {
    await redis.ping();
    const since = await meter.start();
    const startedAt = preciseNow();
    for (let first = 0; first < entries.length; first += BATCH) {
      const pipeline = redis.pipeline();
      for (const entry of entries.slice(first, first + BATCH))
        addEntry(pipeline, stream, STREAM_MAX_LEN, entry);
      const failure = (await pipeline.exec())?.find(([error]) => error)?.[0];
      if (failure) throw failure;
    }
    const rate = perSecond(entries.length, startedAt);
    return drainOf(rate, entries.length, await meter.stop(since), 'bench');
  } finally {
    redis.disconnect();
    await env.redis.del(stream);
  }
}

/**
 * The same rows claimed and deleted in the relay's batches, no Redis: one transaction per batch on a
 * pipelining connection without waiting for the WAL flush at commit, as the relay's own connection.
 */
async function postgresLimit(env: BenchEnvironment, events: PremiumEventPayload[]): Promise<Drain> {
  await seedOutbox(env.pool, events);
  const client = new pg.Client({
    connectionString: env.databaseUrl,
    pipeline: true,
    options: '-c synchronous_commit=off',
  });
  // Losing the connection fails the query in flight, which reports it; the event must not crash the bench.
  client.on('error', () => undefined);
  await client.connect();
  const meter = new CpuMeter(env, {});
  try {
    const since = await meter.start();
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
    const rate = perSecond(deleted, startedAt);
    return drainOf(rate, deleted, await meter.stop(since), 'bench');
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

  const drains = new Map(VARIANTS.map((variant) => [variant, [] as Drain[]]));
  const bareRedis: Drain[] = [];
  const barePostgres: Drain[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const variant of VARIANTS) drains.get(variant)!.push(await relayDrain(env, events, variant));
    bareRedis.push(await redisLimit(env, entries));
    barePostgres.push(await postgresLimit(env, events));
    console.log(`  relay drain run ${run}/${runs} done`);
  }
  const rates = (runs: Drain[]) => runs.map((drain) => drain.rate);
  const redis = rates(bareRedis);
  const postgres = rates(barePostgres);
  const cpu = (name: string, runs: Drain[], part: keyof Drain['cpu']): Figure => ({
    name,
    unit: 'ms/1k ev',
    runs: runs.map((drain) => drain.cpu[part]),
  });
  // A relay claims, then adds, then deletes: each batch pays the Postgres time and the Redis time in turn,
  // so one relay can at best reach the harmonic combination of the two limits.
  const serialCeiling = redis.map((rate, i) => 1 / (1 / rate + 1 / postgres[i]!));
  const payloadBytes =
    entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.payload), 0) / entries.length;
  const single = VARIANTS.filter((variant) => variant.count === 1);
  return {
    title: 'Relay drain',
    setup: `${EVENTS.toLocaleString('en-US')} pending rows, ${Math.round(payloadBytes)}-byte payloads, batches of ${BATCH}, ${DEFAULT_TUNING.scriptedAdds ? 'Lua-script' : 'pipelined'} adds by default`,
    figures: [
      ...VARIANTS.map((variant) => ({
        name: variant.name,
        unit: 'events/s',
        runs: rates(drains.get(variant)!),
        ...(variant === ONE ? { target: { op: '>=', value: 20_000 } as const } : {}),
      })),
      { name: 'bare Redis: pipelined XADD', unit: 'events/s', runs: redis },
      { name: 'bare Postgres: claim + delete', unit: 'events/s', runs: postgres },
      ...VARIANTS.map((variant) => ({
        name: `${variant.name} / min(bare)`,
        unit: 'ratio',
        runs: rates(drains.get(variant)!).map((rate, i) => rate / Math.min(redis[i]!, postgres[i]!)),
      })),
      ...single.map((variant) => ({
        name: `${variant.name} / serial ceiling 1/(1/Redis + 1/Postgres)`,
        unit: 'ratio',
        runs: rates(drains.get(variant)!).map((rate, i) => rate / serialCeiling[i]!),
        ...(variant === ONE ? { target: { op: '>=', value: 0.85 } as const } : {}),
      })),
      ...single.flatMap((variant) => [
        cpu(`${variant.name}: CPU of the relay process`, drains.get(variant)!, 'relays'),
        cpu(`${variant.name}: CPU of PostgreSQL`, drains.get(variant)!, 'postgres'),
        cpu(`${variant.name}: CPU of Redis`, drains.get(variant)!, 'redis'),
        cpu(`${variant.name}: CPU of the machine`, drains.get(variant)!, 'machine'),
      ]),
      cpu('bare Redis: CPU of Redis', bareRedis, 'redis'),
      cpu('bare Redis: CPU of the machine (client included)', bareRedis, 'machine'),
      cpu('bare Postgres: CPU of PostgreSQL', barePostgres, 'postgres'),
      cpu('bare Postgres: CPU of the machine (client included)', barePostgres, 'machine'),
    ],
  };
}

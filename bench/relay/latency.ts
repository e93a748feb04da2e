import { DEFAULT_TUNING } from '../../src/worker/relay/outbox-relay';
import { startChild, whileAlive, type Child } from '../children';
import { CpuMeter } from '../cpu';
import type { BenchEnvironment } from '../environment';
import type { Figure, Section } from '../report';
import { quantile } from '../stats';
import type { LoadRequest, LoadResult } from './generator-process';
import { startRelays, stopRelays } from './relays';
import { StreamWatcher } from './stream-watcher';

const RATES = [500, 3000];
const DURATION_MS = 3000;
/** Opens the generator's connections and lets the relay and the generator's code warm up. */
const WARM_UP: LoadRequest = { rate: 500, durationMs: 1000 };

/** How the relay learns of new rows: notifications (with or without a linger), or its poll alone. */
interface Mode {
  label: string;
  pollingOnly: boolean;
  lingerMs?: number;
}

const LINGER_MS = 2;
const MODES: Mode[] = [
  { label: 'LISTEN/NOTIFY', pollingOnly: false },
  { label: `LISTEN/NOTIFY, linger ${LINGER_MS} ms`, pollingOnly: false, lingerMs: LINGER_MS },
  { label: 'polling only', pollingOnly: true },
];

interface RunFigures {
  p50: number;
  p95: number;
  p99: number;
  committedPerSecond: number;
  /** The relay process's CPU per 1,000 events relayed, in ms. */
  relayCpu: number;
}

async function offer(
  meter: CpuMeter,
  generator: Child,
  relays: Child[],
  watcher: StreamWatcher,
  request: LoadRequest,
): Promise<RunFigures> {
  const since = await meter.start();
  generator.send(request);
  const { commits, startedAt, finishedAt } = await generator.nextMessage<LoadResult>();
  const seenAt = await whileAlive(relays, watcher.seen(commits.map(([eventId]) => eventId)));
  const used = await meter.stop(since);
  const latencies = commits.map(([, commitSentAt], i) => seenAt[i]! - commitSentAt);
  const relaySeconds = Object.values(used.processes).reduce((sum, seconds) => sum + seconds, 0);
  return {
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    committedPerSecond: commits.length / ((finishedAt - startedAt) / 1000),
    relayCpu: (relaySeconds * 1e6) / commits.length,
  };
}

/** Runs every rate `runs` times with one relay process, woken by notifications or polling only. */
async function measureMode(
  env: BenchEnvironment,
  mode: Mode,
  runs: number,
): Promise<Map<number, RunFigures[]>> {
  // With the insert trigger disabled no notification comes, and the relay finds new rows only when it polls.
  const { pollingOnly } = mode;
  if (pollingOnly) await env.pool.query('ALTER TABLE outbox DISABLE TRIGGER outbox_notify');
  const stream = env.key('latency');
  const watcher = new StreamWatcher(env.redisUrl, stream);
  const relays = await startRelays(env, stream, 1, mode.lingerMs ? { lingerMs: mode.lingerMs } : undefined);
  const meter = new CpuMeter(env, Object.fromEntries(relays.map((relay) => [relay.name, relay.pid])));
  const generator = startChild('generator', 'bench/relay/generator-process.ts', {
    DATABASE_URL: env.databaseUrl,
  });
  const byRate = new Map(RATES.map((rate) => [rate, [] as RunFigures[]]));
  try {
    await offer(meter, generator, relays, watcher, WARM_UP);
    for (let run = 1; run <= runs; run++) {
      for (const rate of RATES) {
        const request = { rate, durationMs: DURATION_MS };
        byRate.get(rate)!.push(await offer(meter, generator, relays, watcher, request));
      }
      console.log(`  latency (${mode.label}) run ${run}/${runs} done`);
    }
    return byRate;
  } finally {
    await generator.stop();
    await stopRelays(relays);
    await watcher.stop();
    await env.redis.del(stream);
    if (pollingOnly) await env.pool.query('ALTER TABLE outbox ENABLE TRIGGER outbox_notify');
  }
}

function figuresOf(mode: Mode, rate: number, runs: RunFigures[]): Figure[] {
  const targeted = mode === MODES[0] && rate === 500;
  const label = `${mode.label}, ${rate.toLocaleString('en-US')}/s offered`;
  return [
    { name: `${label}: committed`, unit: 'events/s', runs: runs.map((r) => r.committedPerSecond) },
    {
      name: `${label}: p50`,
      unit: 'ms',
      runs: runs.map((r) => r.p50),
      ...(targeted && { target: { op: '<=', value: 5 } as const }),
    },
    { name: `${label}: p95`, unit: 'ms', runs: runs.map((r) => r.p95) },
    {
      name: `${label}: p99`,
      unit: 'ms',
      runs: runs.map((r) => r.p99),
      ...(targeted && { target: { op: '<=', value: 25 } as const }),
    },
    { name: `${label}: CPU of the relay`, unit: 'ms/1k ev', runs: runs.map((r) => r.relayCpu) },
  ];
}

/**
 * Issue 7, part 2: from the COMMIT of an outbox event (appendEvent in its own transaction, as every grant
 * does) to a consumer's XREAD returning it, under an open-loop load.
 */
export async function benchRelayLatency(env: BenchEnvironment, runs: number): Promise<Section> {
  const figures: Figure[] = [];
  for (const mode of MODES) {
    for (const [rate, rateRuns] of await measureMode(env, mode, runs))
      figures.push(...figuresOf(mode, rate, rateRuns));
  }
  return {
    title: 'COMMIT to XREAD latency',
    setup: `one relay, open-loop appendEvent commits for ${DURATION_MS / 1000} s per rate, relay poll every ${DEFAULT_TUNING.pollIntervalMs} ms`,
    figures,
  };
}

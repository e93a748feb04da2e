import type { RelayOptions, RelayTuning } from '../../src/worker/relay/outbox-relay';
import { startChild, whileAlive, type Child } from '../children';
import type { BenchEnvironment } from '../environment';
import { pollUntil } from '../../test/support/wait';

export type RelayProcessOptions = Omit<RelayOptions, 'logger' | 'registry'>;

/** The stream is never trimmed during a run, so its length counts the entries added. */
export const STREAM_MAX_LEN = 10_000_000;

/** The relay's connections, by the application names it gives them. */
const ACTIVE_RELAYS = `
  SELECT count(*) FILTER (WHERE application_name = 'premium-relay')::int AS claiming,
         count(*) FILTER (WHERE application_name = 'premium-relay-listen' AND query ILIKE 'LISTEN%')::int AS listening
  FROM pg_stat_activity WHERE datname = current_database()`;

/**
 * Starts `count` relay processes on the bench database and `stream` with the relay's default tuning (or
 * `tuning` over it), and
 * resolves once each one listens and has made its first (empty) claim, so that a measurement that starts
 * now does not include start-up.
 */
export async function startRelays(
  env: BenchEnvironment,
  stream: string,
  count: number,
  tuning?: Partial<RelayTuning>,
): Promise<Child[]> {
  const options: RelayProcessOptions = {
    databaseUrl: env.databaseUrl,
    redisUrl: env.redisUrl,
    stream,
    streamMaxLen: STREAM_MAX_LEN,
    tuning,
  };
  const relays = Array.from({ length: count }, (_, i) =>
    startChild(`relay-${i + 1}`, 'bench/relay/relay-process.ts', { BENCH_RELAY: JSON.stringify(options) }),
  );
  await whileAlive(
    relays,
    pollUntil(`${count} relay(s) to connect`, async () => {
      const { rows } = await env.pool.query<{ claiming: number; listening: number }>(ACTIVE_RELAYS);
      const active = rows[0];
      return active !== undefined && active.claiming >= count && active.listening >= count;
    }),
  );
  return relays;
}

export async function stopRelays(relays: Child[]): Promise<void> {
  await Promise.all(relays.map((relay) => relay.stop()));
}

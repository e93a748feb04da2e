import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Config } from '../../src/core/config';
import { OutboxRelay, type RelayOptions, type RelayTuning } from '../../src/worker/relay/outbox-relay';

export interface TestRelay {
  relay: OutboxRelay;
  registry: Registry;
}

/** Starts relays on the test's database and stream; each is stopped after the test. */
export function useRelays(): (
  config: Config,
  options?: Partial<
    Pick<RelayOptions, 'redisUrl' | 'redisTopology' | 'streamMinReplicas' | 'listenUrl' | 'queueRoleSyncs'>
  > & {
    tuning?: Partial<RelayTuning>;
    logger?: Logger;
  },
) => TestRelay {
  const running: OutboxRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
  });
  return (config, options = {}) => {
    const registry = new Registry();
    const relay = new OutboxRelay({
      databaseUrl: config.databaseUrl,
      ...options,
      redisUrl: options.redisUrl ?? config.redisUrl,
      stream: config.eventsStream,
      streamMaxLen: config.eventsStreamMaxLen,
      logger: options.logger ?? pino({ level: 'silent' }),
      registry,
      tuning: options.tuning,
    });
    relay.start();
    running.push(relay);
    return { relay, registry };
  };
}

/** A logger keeping the messages of its lines (and their `msg` only), to check what an operator is told. */
export function recordingLogger(): { logger: Logger; messages: string[] } {
  const messages: string[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) },
  );
  return { logger, messages };
}

/** The value of a counter (or gauge) without labels. */
export async function counterValue(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  return (await metric?.get())?.values[0]?.value ?? 0;
}

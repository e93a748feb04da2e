// One outbox relay in a process of its own, as a worker replica runs it: `relays.ts` starts it.
import pino from 'pino';
import { OutboxRelay } from '../../src/worker/relay/outbox-relay';
import type { RelayProcessOptions } from './relays';

const options = JSON.parse(process.env.BENCH_RELAY ?? '') as RelayProcessOptions;
const relay = new OutboxRelay({ ...options, logger: pino({ level: 'warn', name: 'bench-relay' }) });
relay.start();
process.once('SIGTERM', () => {
  relay.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});

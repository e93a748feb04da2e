import type { Pool } from 'pg';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { StreamPublisher } from './stream-publisher';
import { OLDEST_PENDING_AGE, OUTBOX_ROWS } from './sql';

export type RelayMetrics = ReturnType<typeof createRelayMetrics>;

/** The relay's metrics on `registry`; the row gauges are read from the outbox at each scrape. */
export function createRelayMetrics(registry: Registry, pool: Pool, publisher: StreamPublisher) {
  const registers = [registry];
  new Gauge({
    name: 'premium_outbox_rows',
    help: 'Outbox rows by state: pending (backlog) or dead (set aside after too many failed attempts)',
    labelNames: ['state'],
    registers,
    async collect() {
      const { rows } = await pool.query<{ pending: number; dead: number }>(OUTBOX_ROWS);
      this.set({ state: 'pending' }, rows[0]?.pending ?? 0);
      this.set({ state: 'dead' }, rows[0]?.dead ?? 0);
    },
  });
  new Gauge({
    name: 'premium_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest pending outbox row (0 when there is none)',
    registers,
    async collect() {
      const { rows } = await pool.query<{ age: number }>(OLDEST_PENDING_AGE);
      this.set(rows[0]?.age ?? 0);
    },
  });
  new Gauge({
    name: 'premium_outbox_redis_connected',
    help: "1 while the relay's Redis connection is ready, 0 while it reconnects",
    registers,
    collect() {
      this.set(publisher.ready ? 1 : 0);
    },
  });
  return {
    relayed: new Counter({
      name: 'premium_outbox_relayed_total',
      help: 'Events added to the Redis stream',
      registers,
    }),
    latency: new Histogram({
      name: 'premium_outbox_relay_latency_seconds',
      help: "Time from an outbox row's creation to Redis acknowledging its XADD",
      buckets: [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    rowFailures: new Counter({
      name: 'premium_outbox_row_failures_total',
      help: 'Failed attempts of single rows (payload invalid or refused by Redis)',
      registers,
    }),
    deadLettered: new Counter({
      name: 'premium_outbox_dead_lettered_total',
      help: 'Rows set aside as dead after their last allowed attempt',
      registers,
    }),
    resentAfterTimeout: new Counter({
      name: 'premium_outbox_resent_after_timeout_total',
      help: 'Events sent again after their XADD timed out: each may be on the stream twice (at-least-once)',
      registers,
    }),
    redisErrors: new Counter({
      name: 'premium_outbox_redis_errors_total',
      help: 'Relay rounds in which Redis dropped the connection, timed out or refused every entry',
      registers,
    }),
    roundErrors: new Counter({
      name: 'premium_outbox_round_errors_total',
      help: 'Relay rounds that failed on a database error',
      registers,
    }),
  };
}

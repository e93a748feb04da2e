import pg from 'pg';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { Backoff, jitteredDelay, type BackoffPolicy } from './backoff';
import { createRelayMetrics, type RelayMetrics } from './metrics';
import {
  claimPending,
  deleteRows,
  recordFailures,
  rowProblem,
  type ClaimedRow,
  type RowFailure,
} from './outbox-claims';
import { OutboxListener } from './outbox-listener';
import { sleep } from './sleep';
import { StreamPublisher } from './stream-publisher';
import { Wakeup } from './wakeup';

export interface RelayTuning {
  /** Rows claimed, sent in one pipelined round and settled in one transaction. */
  batchSize: number;
  /** The backstop for a missed notification, and how soon a row's retry is noticed when all is quiet. */
  pollIntervalMs: number;
  /** A row that failed on its own this many times is set aside as dead. */
  maxAttempts: number;
  rowRetry: BackoffPolicy;
  /** Reconnecting to Redis, and retrying after a round failed on Redis or the database; never counted against rows. */
  outageRetry: BackoffPolicy;
  /** Larger payloads are failed locally: Redis would drop the connection (proto-max-bulk-len ≥ 1 MB). */
  maxPayloadBytes: number;
  redisCommandTimeoutMs: number;
  /** Postgres ends a relay transaction left idle this long (a hung process), freeing its rows. */
  idleInTransactionTimeoutMs: number;
}

export const DEFAULT_TUNING: RelayTuning = {
  batchSize: 1000,
  pollIntervalMs: 1000,
  maxAttempts: 10,
  rowRetry: { baseMs: 1000, maxMs: 300_000 },
  outageRetry: { baseMs: 100, maxMs: 5000 },
  maxPayloadBytes: 512 * 1024,
  redisCommandTimeoutMs: 2000,
  idleInTransactionTimeoutMs: 10_000,
};

export interface RelayOptions {
  databaseUrl: string;
  redisUrl: string;
  stream: string;
  streamMaxLen: number;
  logger: Logger;
  /** Where the relay's metrics go; a registry of its own when absent. */
  registry?: Registry;
  tuning?: Partial<RelayTuning>;
}

type Round = 'more' | 'caught-up' | 'outage';

interface Settled {
  claimed: number;
  sent: ClaimedRow[];
  ackedAt: number;
  failures: RowFailure[];
  unsent: number;
}

/**
 * Moves outbox rows to the Redis stream: claims due rows oldest first (FOR UPDATE SKIP LOCKED, so any
 * number of relays can run), sends them in one pipelined round of XADD, and in the same transaction
 * deletes exactly the rows Redis acknowledged and counts an attempt against the rows that failed on their
 * own. Woken by the outbox notification, with a poll as backstop.
 */
export class OutboxRelay {
  private readonly tuning: RelayTuning;
  private readonly logger: Logger;
  private readonly pool: pg.Pool;
  private readonly publisher: StreamPublisher;
  private readonly listener: OutboxListener;
  private readonly metrics: RelayMetrics;
  private readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private readonly outageBackoff: Backoff;
  private loop: Promise<void> | null = null;

  constructor(options: RelayOptions) {
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.logger = options.logger;
    this.pool = new pg.Pool({
      connectionString: options.databaseUrl,
      application_name: 'premium-relay',
      // One connection claims; the other answers metric scrapes.
      max: 2,
      idle_in_transaction_session_timeout: this.tuning.idleInTransactionTimeoutMs,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'idle relay connection failed'));
    this.publisher = new StreamPublisher({
      redisUrl: options.redisUrl,
      stream: options.stream,
      streamMaxLen: options.streamMaxLen,
      commandTimeoutMs: this.tuning.redisCommandTimeoutMs,
      reconnect: this.tuning.outageRetry,
      logger: this.logger,
    });
    this.listener = new OutboxListener(options.databaseUrl, () => this.wakeup.notify(), this.logger);
    this.metrics = createRelayMetrics(options.registry ?? new Registry(), this.pool, this.publisher);
    this.outageBackoff = new Backoff(this.tuning.outageRetry);
  }

  start(): void {
    this.listener.start();
    this.loop ??= this.relayUntilStopped();
  }

  /** Finishes the batch in hand, then closes the relay's connections. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wakeup.notify();
    await this.loop;
    await this.listener.stop();
    this.publisher.close();
    await this.pool.end();
  }

  private async relayUntilStopped(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      // Claiming while Redis is unreachable would only lock rows to roll them back.
      if (!this.publisher.ready) {
        await this.publisher.untilReady(this.stopping.signal);
        continue;
      }
      const round = await this.relayRound();
      if (round === 'outage') {
        await sleep(this.outageBackoff.next(), this.stopping.signal);
        continue;
      }
      this.outageBackoff.reset();
      if (round === 'caught-up') await this.wakeup.wait(this.tuning.pollIntervalMs);
    }
  }

  private async relayRound(): Promise<Round> {
    let settled: Settled;
    try {
      settled = await this.inTransaction((client) => this.relayBatch(client));
    } catch (error) {
      this.metrics.roundErrors.inc();
      this.logger.error({ err: error }, 'relay round failed');
      return 'outage';
    }
    this.record(settled);
    if (settled.unsent > 0) {
      this.metrics.redisErrors.inc();
      return 'outage';
    }
    return settled.claimed === this.tuning.batchSize ? 'more' : 'caught-up';
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // When ROLLBACK fails too, the connection is gone and the server has rolled back by itself.
      await client.query('ROLLBACK').catch(() => undefined);
      client.release(true);
      throw error;
    }
  }

  private async relayBatch(client: pg.PoolClient): Promise<Settled> {
    const rows = await claimPending(client, this.tuning.batchSize);
    const sendable: ClaimedRow[] = [];
    const failures: RowFailure[] = [];
    for (const row of rows) {
      const problem = rowProblem(row, this.tuning.maxPayloadBytes);
      if (problem) failures.push(this.failureOf(row, problem));
      else sendable.push(row);
    }
    const deliveries = sendable.length > 0 ? await this.publisher.publish(sendable) : [];
    const ackedAt = Date.now();
    const sent: ClaimedRow[] = [];
    let unsent = 0;
    for (const [row, delivery] of deliveries) {
      if (delivery.outcome === 'sent') sent.push(row);
      else if (delivery.outcome === 'refused') failures.push(this.failureOf(row, delivery.reason));
      else unsent++;
    }
    await deleteRows(
      client,
      sent.map((row) => row.id),
    );
    await recordFailures(client, failures);
    return { claimed: rows.length, sent, ackedAt, failures, unsent };
  }

  private failureOf(row: ClaimedRow, error: string): RowFailure {
    const attempts = row.attempts + 1;
    return {
      id: row.id,
      attempts,
      retryInMs: jitteredDelay(row.attempts, this.tuning.rowRetry),
      dead: attempts >= this.tuning.maxAttempts,
      error,
    };
  }

  private record({ sent, ackedAt, failures }: Settled): void {
    this.metrics.relayed.inc(sent.length);
    for (const row of sent) this.metrics.latency.observe(Math.max(0, ackedAt - row.createdAtMs) / 1000);
    for (const failure of failures) {
      this.metrics.rowFailures.inc();
      if (failure.dead) this.metrics.deadLettered.inc();
      this.logger.warn(
        { outboxId: failure.id, attempts: failure.attempts, dead: failure.dead, error: failure.error },
        failure.dead ? 'outbox row set aside as dead' : 'outbox row failed; will retry',
      );
    }
  }
}

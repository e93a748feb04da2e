import pg from 'pg';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { RedisTopology } from '../../core/redis-topology';
import { Backoff, jitteredDelay, type BackoffPolicy } from './backoff';
import { createRelayMetrics, type RelayMetrics } from './metrics';
import {
  claimPending,
  roleSyncUsers,
  rowProblem,
  settleClaimed,
  type ClaimedRow,
  type RowFailure,
} from './outbox-claims';
import { OutboxListener } from './outbox-listener';
import { sleep } from '../sleep';
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
  /** Reconnecting to Redis, and retrying a round that failed on Redis or the database (no row's attempt). */
  outageRetry: BackoffPolicy;
  /** Larger payloads are failed locally: Redis would drop the connection (proto-max-bulk-len ≥ 1 MB). */
  maxPayloadBytes: number;
  redisCommandTimeoutMs: number;
  /** Postgres ends a relay transaction left idle this long (a hung process), freeing its rows. */
  idleInTransactionTimeoutMs: number;
  /** Each batch as one Lua script of XADDs rather than a pipeline of them (docs/performance.md). */
  scriptedAdds: boolean;
  /**
   * After a notification wakes the relay, it waits this long before claiming, so that the commits of
   * the next few milliseconds go in the same round (fewer rounds, less CPU, that much more latency).
   */
  lingerMs: number;
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
  scriptedAdds: true,
  lingerMs: 0,
};

export interface RelayOptions {
  databaseUrl: string;
  redisUrl: string;
  /** A Sentinel set or a Cluster instead of the server at `redisUrl`. */
  redisTopology?: RedisTopology;
  /** Replicas that must hold the entries (Redis WAIT) before their rows are deleted; 0 by default. */
  streamMinReplicas?: number;
  /** Where to LISTEN for new rows (straight to PostgreSQL, not through PgBouncer); `null`: poll only. */
  listenUrl?: string | null;
  stream: string;
  streamMaxLen: number;
  logger: Logger;
  /** Where the relay's metrics go; a registry of its own when absent. */
  registry?: Registry;
  tuning?: Partial<RelayTuning>;
  /** Roles are on: each relayed USER change queues its user's role sync (docs/roles.md). */
  queueRoleSyncs?: boolean;
}

type Round = 'more' | 'caught-up' | 'outage';

/** Rows locked by the open transaction on `client`. */
interface ClaimedBatch {
  client: pg.PoolClient;
  rows: ClaimedRow[];
}

/** A batch Redis answered for, its transaction still open until it is settled. */
interface Published {
  client: pg.PoolClient;
  sent: ClaimedRow[];
  ackedAt: number;
  failures: RowFailure[];
  unsent: number;
  /** Unsent rows whose XADD timed out: their re-send may duplicate them on the stream. */
  mayHaveLanded: number;
}

/**
 * Moves outbox rows to the Redis stream: claims due rows oldest first (FOR UPDATE SKIP LOCKED, so any
 * number of relays can run), sends them in one pipelined round of XADD, and in the same transaction
 * deletes exactly the rows Redis acknowledged and counts an attempt against the rows that failed on their
 * own. Woken by the outbox notification, with a poll as backstop. While Redis takes a full batch, the
 * next one is already being claimed on a second connection and the previous one is being settled on a
 * third. A batch is sent only once Redis acknowledged every row of the one before, so a single relay's
 * entries reach the stream in the outbox's order (docs/delivery-order.md: at least once).
 */
export class OutboxRelay {
  private readonly tuning: RelayTuning;
  private readonly logger: Logger;
  private readonly queueRoleSyncs: boolean;
  private readonly pool: pg.Pool;
  private readonly publisher: StreamPublisher;
  private readonly listener: OutboxListener | null;
  private readonly metrics: RelayMetrics;
  private readonly wakeup = new Wakeup();
  private readonly stopping = new AbortController();
  private readonly outageBackoff: Backoff;
  private loop: Promise<void> | null = null;
  /** The last batch's settlement, which runs while the next batch is sent: false when it failed. */
  private settling: Promise<boolean> = Promise.resolve(true);
  /** When a claim last started from the oldest pending row (Date.now()). */
  private claimedFromOldestAt = 0;

  constructor(options: RelayOptions) {
    this.tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.logger = options.logger;
    this.queueRoleSyncs = options.queueRoleSyncs ?? false;
    this.pool = new pg.Pool({
      connectionString: options.databaseUrl,
      application_name: 'premium-relay',
      // Three for the batch being settled, the one being sent and the one being claimed; one for metric
      // scrapes.
      max: 4,
      pipeline: true,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
    });
    this.pool.on('error', (error) => this.logger.warn({ err: error }, 'idle relay connection failed'));
    // A connection lost while its batch is out (Postgres restarted, the connection cut) emits `error` on
    // a client the pool no longer listens to, which would end the process. Its batch's next statement
    // fails on its own and rolls it back: the rows are sent again (at least once).
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.publisher = new StreamPublisher({
      redis: { redisUrl: options.redisUrl, redis: options.redisTopology ?? { mode: 'single' } },
      minReplicas: options.streamMinReplicas ?? 0,
      scripted: this.tuning.scriptedAdds,
      stream: options.stream,
      streamMaxLen: options.streamMaxLen,
      commandTimeoutMs: this.tuning.redisCommandTimeoutMs,
      reconnect: this.tuning.outageRetry,
      logger: this.logger,
    });
    const listenUrl = options.listenUrl === undefined ? options.databaseUrl : options.listenUrl;
    this.listener = listenUrl ? new OutboxListener(listenUrl, () => this.wakeup.notify(), this.logger) : null;
    this.metrics = createRelayMetrics(options.registry ?? new Registry(), this.pool, this.publisher);
    this.outageBackoff = new Backoff(this.tuning.outageRetry);
  }

  start(): void {
    this.listener?.start();
    this.loop ??= this.relayUntilStopped();
  }

  /** Finishes the batch in hand, then closes the relay's connections. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wakeup.notify();
    await this.loop;
    await this.listener?.stop();
    this.publisher.close();
    await this.pool.end();
  }

  private async relayUntilStopped(): Promise<void> {
    let next: Promise<ClaimedBatch> | null = null;
    while (!this.stopping.signal.aborted) {
      // Claiming while Redis is unreachable would only lock rows to roll them back.
      if (!this.publisher.ready) {
        await this.abandon(next);
        await this.settling;
        next = null;
        await this.publisher.untilReady(this.stopping.signal);
        continue;
      }
      const { round, prefetched } = await this.relayRound(next ?? this.claim());
      next = prefetched;
      if (round === 'outage') {
        await sleep(this.outageBackoff.next(), this.stopping.signal);
        continue;
      }
      this.outageBackoff.reset();
      if (round === 'caught-up') await this.waitForRows();
    }
    await this.abandon(next);
    await this.settling;
  }

  /**
   * Until a notification or the poll; then, with a linger, a little longer, forgetting the notifications
   * of that time: the claim that follows sees every row committed before it.
   */
  private async waitForRows(): Promise<void> {
    await this.wakeup.wait(this.tuning.pollIntervalMs);
    if (this.tuning.lingerMs <= 0) return;
    await sleep(this.tuning.lingerMs, this.stopping.signal);
    await this.wakeup.wait(0);
  }

  /**
   * Relays one claimed batch; when it was full, returns the next batch's claim, already under way, and
   * leaves this batch settling meanwhile. Otherwise it returns once this batch is settled, so that the
   * next claim finds every row that stays pending (none is overtaken) and none locked.
   */
  private async relayRound(
    claiming: Promise<ClaimedBatch>,
  ): Promise<{ round: Round; prefetched: Promise<ClaimedBatch> | null }> {
    let prefetched: Promise<ClaimedBatch> | null = null;
    let round: Round;
    try {
      const batch = await claiming;
      if (batch.rows.length === this.tuning.batchSize) {
        prefetched = this.claim(this.prefetchFrom(batch));
        // Its failure is dealt with where it is awaited: in the next round, or by abandon().
        prefetched.catch(() => undefined);
      }
      const published = await this.publish(batch);
      // The previous batch settled while this one was sent; one settlement at a time, in order.
      const previousSettled = await this.settling;
      this.settling = this.settle(published);
      if (published.unsent > 0) this.metrics.redisErrors.inc();
      // The next batch must not overtake the rows that stay pending.
      if (published.unsent > 0 || !previousSettled) round = 'outage';
      else round = prefetched ? 'more' : 'caught-up';
    } catch (error) {
      this.metrics.roundErrors.inc();
      this.logger.error({ err: error }, 'relay round failed');
      round = 'outage';
    }
    if (round === 'more') return { round, prefetched };
    await this.abandon(prefetched);
    if (!(await this.settling)) round = 'outage';
    return { round, prefetched: null };
  }

  /**
   * Where the claim of the batch after `batch` starts: after its last row, so that Postgres does not walk
   * (and try to lock) every row this relay holds, the batch being sent and the one being settled, which
   * doubled its CPU per row in a drain. A row left behind that was not claimable when its turn came
   * (committed late with a lower id, due for its retry, released by another relay) is taken by a claim
   * from the oldest pending row: every claim that does not follow a full batch, and one each poll interval.
   */
  private prefetchFrom(batch: ClaimedBatch): string | undefined {
    if (Date.now() - this.claimedFromOldestAt >= this.tuning.pollIntervalMs) return undefined;
    return batch.rows[batch.rows.length - 1]!.id;
  }

  private async claim(afterId?: string): Promise<ClaimedBatch> {
    if (afterId === undefined) this.claimedFromOldestAt = Date.now();
    const client = await this.pool.connect();
    try {
      const { batchSize, idleInTransactionTimeoutMs } = this.tuning;
      return {
        client,
        rows: await claimPending(client, batchSize, idleInTransactionTimeoutMs, afterId),
      };
    } catch (error) {
      await rollBack(client);
      throw error;
    }
  }

  /** Releases a claim without sending it: its rows are free again at once. */
  private async abandon(claiming: Promise<ClaimedBatch> | null): Promise<void> {
    const batch = await claiming?.catch(() => null);
    if (batch) await rollBack(batch.client);
  }

  /** Sends the batch's rows and judges each one; the batch is released (rolled back) if that throws. */
  private async publish({ client, rows }: ClaimedBatch): Promise<Published> {
    try {
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
      let mayHaveLanded = 0;
      for (const [row, delivery] of deliveries) {
        if (delivery.outcome === 'sent') sent.push(row);
        else if (delivery.outcome === 'refused') failures.push(this.failureOf(row, delivery.reason));
        else {
          unsent++;
          if (delivery.mayHaveLanded) mayHaveLanded++;
        }
      }
      return { client, sent, ackedAt, failures, unsent, mayHaveLanded };
    } catch (error) {
      await rollBack(client);
      throw error;
    }
  }

  /**
   * Deletes the sent rows and records the failed ones, and commits. Never rejects: on failure the batch
   * is rolled back (its rows pending again: those on the stream will be sent twice) and it answers false.
   */
  private async settle(published: Published): Promise<boolean> {
    const { client, sent, failures } = published;
    try {
      await settleClaimed(
        client,
        sent.map((row) => row.id),
        failures,
        this.queueRoleSyncs ? roleSyncUsers(sent) : [],
      );
      client.release();
    } catch (error) {
      this.metrics.roundErrors.inc();
      this.logger.error({ err: error }, 'relay round failed');
      await rollBack(client);
      return false;
    }
    this.record(published);
    return true;
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

  private record({ sent, ackedAt, failures, mayHaveLanded }: Published): void {
    this.metrics.relayed.inc(sent.length);
    this.metrics.resentAfterTimeout.inc(mayHaveLanded);
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

/** Ends the transaction on `client` and returns the connection to the pool, or discards it when broken. */
async function rollBack(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
    client.release();
  } catch (error) {
    // The connection is gone, and with it the transaction: the server rolls back by itself.
    client.release(error as Error);
  }
}

import { Cluster, ReplyError, type ChainableCommander, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { logRedisOutages } from '../../redis/outages';
import { connectRedis, type RedisClient, type RedisSettings } from '../../redis/connection';
import { jitteredDelay, type BackoffPolicy } from './backoff';

/** ioredis's error for a command that outlived `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';

/** One stream entry, in the format of docs/events.md: the event's uuid, its type and its payload as JSON. */
export interface StreamEntry {
  eventId: string;
  type: string;
  payload: string;
}

/**
 * What became of one entry: `sent` (Redis acknowledged it), `refused` (Redis rejected this entry: it
 * counts against the row) or `unsent` (Redis was unreachable, or in a state that refuses every entry).
 */
export type Delivery =
  | { outcome: 'sent' }
  | {
      outcome: 'refused' | 'unsent';
      reason: string;
      /** Its XADD timed out: it may still land, so its re-send may put it on the stream twice. */
      mayHaveLanded?: true;
    };

/**
 * Error replies that describe Redis's state or configuration (the stream key's type, memory, a replica,
 * authentication, a missing command) rather than the entry: every row would get them alike.
 */
const REDIS_STATE_ERRORS =
  /^(WRONGTYPE|OOM|READONLY|LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|MOVED|ASK|NOAUTH|NOPERM|WRONGPASS|MISCONF|NOREPLICAS|ERR unknown command)\b/;

/**
 * Judges one entry by the error of its XADD (null when Redis acknowledged it). Only an error reply about
 * the entry itself (e.g. "ERR Protocol error" for a bulk over proto-max-bulk-len) counts against the row;
 * connection errors (closed, timed out, not writable) and Redis-state errors mean the row must wait.
 */
export function judgeReply(error: Error | null): Delivery {
  if (!error) return { outcome: 'sent' };
  if (error.message === COMMAND_TIMED_OUT)
    return { outcome: 'unsent', reason: error.message, mayHaveLanded: true };
  const aboutTheEntry = error instanceof ReplyError && !REDIS_STATE_ERRORS.test(error.message);
  return { outcome: aboutTheEntry ? 'refused' : 'unsent', reason: error.message };
}

/** Queues one XADD of an entry (docs/events.md: fields id, type, payload; the stream trimmed approximately). */
export function addEntry(
  pipeline: ChainableCommander,
  stream: string,
  maxLen: number,
  { eventId, type, payload }: StreamEntry,
): void {
  pipeline.xadd(stream, 'MAXLEN', '~', maxLen, '*', 'id', eventId, 'type', type, 'payload', payload);
}

/**
 * A batch of XADDs as one script: one command for ioredis to build and parse instead of one per entry,
 * which is most of a relay's CPU. `redis.pcall` gives each entry its own answer (its id, or `{ error }`),
 * as a pipeline would. Redis runs nothing else meanwhile (about 4 ms per 1,000 entries).
 */
const ADD_ENTRIES = `
local replies = {}
for i = 2, #ARGV, 3 do
  local reply = redis.pcall('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*',
    'id', ARGV[i], 'type', ARGV[i + 1], 'payload', ARGV[i + 2])
  if type(reply) == 'table' and reply.err then replies[#replies + 1] = { reply.err }
  else replies[#replies + 1] = reply end
end
return replies`;

type ScriptedPipeline = ChainableCommander & {
  addEntries(stream: string, maxLen: number, ...fields: string[]): ScriptedPipeline;
};

export interface PublisherOptions {
  redis: RedisSettings;
  /** Send each batch as one script (ADD_ENTRIES) rather than a pipeline of XADDs. */
  scripted: boolean;
  /**
   * Replicas that must have the entries before they count as sent (WAIT after the XADDs): an entry only the
   * master had is lost when a failover promotes a replica, so its row must stay pending. 0: no WAIT.
   */
  minReplicas: number;
  stream: string;
  streamMaxLen: number;
  /**
   * A timed-out XADD may still land (it reached Redis, which answers it once it resumes): the row stays
   * pending and is sent again, so delivery is at least once and consumers drop duplicates by eventId.
   */
  commandTimeoutMs: number;
  reconnect: BackoffPolicy;
  logger: Logger;
}

/**
 * The relay's Redis client options, whatever the topology (a Sentinel or Cluster setup adds its own): it
 * fails fast instead of queueing while Redis is unreachable.
 */
export function relayRedisOptions(commandTimeoutMs: number, reconnect: BackoffPolicy): RedisOptions {
  return {
    enableOfflineQueue: false,
    // XADDs in flight when the connection drops fail at once instead of being resent after a
    // reconnect, when the relay may have given up on them: the rows stay pending and go again.
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectionName: 'premium-relay',
    retryStrategy: (attempt) => jitteredDelay(attempt - 1, reconnect),
  };
}

/**
 * The relay's own Redis connection. After a timed-out XADD the connection is dropped and made anew:
 * on a hung Redis, commands written to the old one would all run once it wakes up, so resending on it
 * would multiply the duplicates; on a new one, nothing is sent until Redis answers its ready check.
 * What was already written to the old one may still land: its rows are sent again (at least once).
 */
export class StreamPublisher {
  private readonly redis: RedisClient;
  /** The last script failed with its connection: the rows' next round goes as plain XADDs. */
  private plainNext = false;

  constructor(private readonly options: PublisherOptions) {
    const { logger } = options;
    this.redis = connectRedis(options.redis, relayRedisOptions(options.commandTimeoutMs, options.reconnect));
    this.redis.defineCommand('addEntries', { numberOfKeys: 1, lua: ADD_ENTRIES });
    logRedisOutages(this.redis, logger, {
      down: 'Redis unavailable: events stay in the outbox',
      back: 'Redis available again: relaying',
    });
    this.redis.on('ready', () => void this.warnWithoutPersistence());
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** Resolves once the connection is ready (ioredis reconnects by itself), or when `signal` aborts. */
  untilReady(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (this.ready || signal.aborted) return resolve();
      const done = () => {
        this.redis.off('ready', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.redis.on('ready', done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Sends every entry in one pipelined round of XADD (or one script) and WAIT, and pairs each one with its
   * delivery. A script refused as a whole (scripting disabled, not permitted) leaves the batch to plain XADDs.
   */
  async publish<T extends StreamEntry>(entries: T[]): Promise<[T, Delivery][]> {
    const scripted = this.options.scripted && !this.plainNext;
    this.plainNext = false;
    let sent = await this.send(entries, scripted);
    // A script that failed as a whole says nothing of its entries. Refused (scripting disabled or not
    // permitted), the batch goes again as plain XADDs at once; when the connection went with it (Redis
    // closes it over a bulk above proto-max-bulk-len), the rows wait and their next round goes plain,
    // where each entry is judged on its own.
    if (sent.scriptFailed) {
      if (sent.scriptFailed instanceof ReplyError && this.ready) sent = await this.send(entries, false);
      else this.plainNext = true;
    }
    const { errors, unreplicated } = sent;
    const timedOut = errors.find((error) => error?.message === COMMAND_TIMED_OUT);
    if (timedOut) this.dropConnection(timedOut);
    return entries.map((entry, i) => {
      const delivery = judgeReply(errors[i] ?? null);
      return [entry, delivery.outcome === 'sent' && unreplicated ? unreplicated : delivery];
    });
  }

  /** One round: each entry's error (null when added), and whether Redis refused the script as a whole. */
  private async send(entries: StreamEntry[], scripted: boolean) {
    const { stream, streamMaxLen, minReplicas } = this.options;
    const pipeline = this.redis.pipeline() as ScriptedPipeline;
    if (scripted) {
      pipeline.addEntries(stream, streamMaxLen, ...entries.flatMap((e) => [e.eventId, e.type, e.payload]));
    } else {
      for (const entry of entries) addEntry(pipeline, stream, streamMaxLen, entry);
    }
    // Half the command timeout: WAIT answers with the count reached so far rather than time out.
    if (minReplicas > 0) pipeline.wait(minReplicas, Math.ceil(this.options.commandTimeoutMs / 2));
    const commands = scripted ? 1 : entries.length;
    let errors: (Error | null)[];
    let unreplicated: Delivery | null = null;
    let scriptFailed: Error | null = null;
    try {
      const replies = await pipeline.exec();
      if (minReplicas > 0) unreplicated = replicationShortfall(replies?.[commands], minReplicas);
      if (scripted) {
        const [error, answers] = replies?.[0] ?? [new Error('no reply to this command'), null];
        scriptFailed = error;
        // Never counted against a row: its own XADD will say which one, if any, Redis refuses.
        const unsent =
          error instanceof ReplyError
            ? new Error(`the batch's script failed: ${(error as Error).message}`)
            : error;
        errors = entries.map((_, i) => unsent ?? entryError((answers as unknown[] | null)?.[i]));
      } else {
        errors = entries.map((_, i) => {
          const reply = replies?.[i];
          return reply ? reply[0] : new Error('no reply to this command');
        });
      }
    } catch (error) {
      errors = entries.map(() => error as Error);
      if (scripted) scriptFailed = error as Error;
    }
    return { errors, unreplicated, scriptFailed };
  }

  /**
   * Destroys the socket, so that ioredis opens a new one (`ready` is false until it is); `disconnect(true)`
   * would only end it, and ending waits for a hung Redis, while the relay keeps sending on it.
   */
  private dropConnection(cause: Error): void {
    this.options.logger.warn(
      { err: cause, timeoutMs: this.options.commandTimeoutMs },
      'Redis did not answer an XADD in time: dropping the connection and sending its entries again; those that reached Redis may land twice (at-least-once, consumers drop duplicates by eventId)',
    );
    const connections = this.redis instanceof Cluster ? this.redis.nodes() : [this.redis];
    for (const connection of connections) connection.stream.destroy();
  }

  /**
   * An outbox row is deleted once Redis acknowledged its XADD: a Redis that does not append its writes
   * to a file loses acknowledged entries in a crash, and no one else has them (README, "Redis durability").
   */
  private async warnWithoutPersistence(): Promise<void> {
    try {
      const info = await this.redis.info('persistence');
      if (/^aof_enabled:0\s*$/m.test(info)) {
        this.options.logger.warn(
          'Redis has no append-only file (appendonly no): events it acknowledged are lost if it crashes; ' +
            'production needs appendonly yes with appendfsync everysec or always',
        );
      }
    } catch {
      // Best effort: Redis may refuse INFO, or be gone again already.
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}

/** An entry's answer from ADD_ENTRIES: its stream id, or `[error message]`. */
function entryError(answer: unknown): Error | null {
  if (typeof answer === 'string') return null;
  if (Array.isArray(answer) && typeof answer[0] === 'string') return new ReplyError(answer[0]);
  return new Error('no reply for this entry');
}

/** Why entries Redis added do not count as sent yet: WAIT failed or reached fewer replicas than needed. */
function replicationShortfall(
  reply: [Error | null, unknown] | undefined,
  minReplicas: number,
): Delivery | null {
  if (!reply) return { outcome: 'unsent', reason: 'no reply to WAIT' };
  const [error, replicas] = reply;
  if (error) return { outcome: 'unsent', reason: `WAIT failed: ${error.message}` };
  if (Number(replicas) < minReplicas)
    return {
      outcome: 'unsent',
      reason: `only ${String(replicas)} of ${minReplicas} replicas have the entries`,
    };
  return null;
}

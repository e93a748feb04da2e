import { Cluster } from 'ioredis';
import type { RedisClient } from '../../redis/connection';
import { redisCircuit, type RedisCircuit } from '../redis-circuit';

/**
 * Adds each counter's requests of this turn (INCRBY) and starts the window of a counter that is new, as
 * @fastify/rate-limit's own Redis script does one request at a time. ARGV holds (added, window ms) per key;
 * the answer holds (count, ttl ms) per key.
 */
const COUNT_REQUESTS = `
local answer = {}
for i, key in ipairs(KEYS) do
  local added = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local count = redis.call('INCRBY', key, added)
  local ttl = window
  if count == added then redis.call('PEXPIRE', key, window) else ttl = redis.call('PTTL', key) end
  answer[2 * i - 1] = count
  answer[2 * i] = ttl
end
return answer`;

const COMMAND = 'premiumCountRequests';

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Counter {
  key: string;
  windowMs: number;
  waiting: Counted[];
}

type CountingClient = RedisClient &
  Record<typeof COMMAND, (...args: (string | number)[]) => Promise<number[]>>;

/** The requests counted in one turn of the event loop, sent to Redis together when it ends. */
class RequestsOfTheTurn {
  private counters = new Map<string, Counter>();

  constructor(
    private readonly redis: CountingClient,
    private readonly circuit: RedisCircuit,
  ) {}

  count(key: string, windowMs: number, done: Counted): void {
    let counter = this.counters.get(key);
    if (!counter) {
      if (this.counters.size === 0) setImmediate(() => this.send());
      counter = { key, windowMs, waiting: [] };
      this.counters.set(key, counter);
    }
    counter.waiting.push(done);
  }

  private send(): void {
    const counters = [...this.counters.values()];
    this.counters = new Map();
    // A Cluster runs a script only on keys of one slot: there, one script per counter.
    const batches = this.redis instanceof Cluster ? counters.map((counter) => [counter]) : [counters];
    for (const batch of batches) void this.countBatch(batch);
  }

  private async countBatch(counters: Counter[]): Promise<void> {
    let answer: number[];
    try {
      answer = await this.circuit.send(() =>
        this.redis[COMMAND](
          counters.length,
          ...counters.map((counter) => counter.key),
          ...counters.flatMap((counter) => [counter.waiting.length, counter.windowMs]),
        ),
      );
    } catch (error) {
      for (const counter of counters) for (const done of counter.waiting) done(error as Error);
      return;
    }
    counters.forEach((counter, i) => {
      const [count, ttl] = [answer[2 * i]!, answer[2 * i + 1]!];
      // Each request gets its own place in the count, as if it had been counted alone.
      const before = count - counter.waiting.length;
      counter.waiting.forEach((done, place) => done(null, { current: before + place + 1, ttl }));
    });
  }
}

/**
 * A store for @fastify/rate-limit (its `store` option) with the same counters in Redis as its own Redis
 * store (`<nameSpace><key>`, INCR, a window from the first request), shared by every API replica, but one
 * Redis command per turn of the event loop for all the requests counted in it, instead of one per
 * request: the API's per-request cost of the limits is then mostly gone (docs/performance.md).
 */
export function perTurnRedisStore(redis: RedisClient, nameSpace: string) {
  const client = redis as CountingClient;
  if (!(COMMAND in client)) redis.defineCommand(COMMAND, { lua: COUNT_REQUESTS });
  const turn = new RequestsOfTheTurn(client, redisCircuit(redis));

  // @fastify/rate-limit constructs it with its options, which it has no use for.
  return class PerTurnRedisStore {
    incr(key: string, done: Counted, timeWindow: number): void {
      turn.count(nameSpace + key, timeWindow, done);
    }

    /** The keys name their route already (rate-limit.ts's keyGenerator): a route's store is this one. */
    child(): PerTurnRedisStore {
      return this;
    }
  };
}

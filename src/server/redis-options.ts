import type { RedisOptions } from 'ioredis';

/** How long the API waits for any one Redis command: a rate limit then lapses, a sign-in fails. */
export const API_REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * The API's Redis client options, whatever the topology (a Sentinel or Cluster setup adds its own):
 * every command answers or fails within about half a second whether Redis is down, refusing
 * connections or hung, because what the API keeps there (rate limits, sign-in state) is worth less
 * than an answer. Nothing waits in an offline queue: a command sent while disconnected fails at once,
 * and reconnection is retried at least every second so that Redis is used again soon after it is back.
 * Once a command timed out, the API sends none until Redis answers again (redis-circuit.ts).
 */
export function apiRedisOptions(): RedisOptions {
  return {
    commandTimeout: API_REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 1000),
    // ioredis runs one auto-pipeline at a time: on a hung Redis, every command sent while one waited out
    // its timeout waited for it, then for its own (two budgets, issue 38). The rate limits send one
    // script per turn of the event loop already (rate-limit-store.ts); the rest is rare.
    enableAutoPipelining: false,
  };
}

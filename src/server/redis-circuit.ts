import type { RedisClient } from '../redis/connection';

/** ioredis's error for a command that outlived `commandTimeout`. */
const COMMAND_TIMED_OUT = 'Command timed out';

/** How soon a silent Redis is asked again once a PING failed (a refused one fails at once). */
const PROBE_EVERY_MS = 100;

/** What a command gets, without reaching Redis, while Redis is silent. */
export class RedisSilentError extends Error {
  constructor() {
    super('Redis left a command unanswered: not asked again until it answers a PING');
  }
}

/**
 * The API's view of one Redis client, shared by everything the API sends it (rate limits, sign-in
 * state, readiness). Once a command timed out, Redis is silent: hung, or stalled longer than the
 * command timeout. Every command then fails at once, without being sent, until Redis answers a PING
 * again, so that a hang costs a request nothing after the first command timed out instead of a budget
 * each, and nothing piles up on the hung connection to run when it wakes. Commands already sent keep
 * their own timeouts.
 */
export class RedisCircuit {
  private silent = false;

  constructor(readonly client: RedisClient) {}

  /** Runs `command` on the client, unless Redis is silent. */
  async send<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    if (this.silent) throw new RedisSilentError();
    try {
      return await command(this.client);
    } catch (error) {
      if ((error as Error).message === COMMAND_TIMED_OUT && !this.silent) {
        this.silent = true;
        void this.probeUntilAnswered();
      }
      throw error;
    }
  }

  /** One PING at a time (each fails within the command timeout) until one answers, or the client ends. */
  private async probeUntilAnswered(): Promise<void> {
    while (this.client.status !== 'end') {
      try {
        await this.client.ping();
        this.silent = false;
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS).unref());
      }
    }
  }
}

const circuits = new WeakMap<RedisClient, RedisCircuit>();

/** The one circuit of `client`: whoever sends it a command learns of a silence any other command met. */
export function redisCircuit(client: RedisClient): RedisCircuit {
  let circuit = circuits.get(client);
  if (!circuit) {
    circuit = new RedisCircuit(client);
    circuits.set(client, circuit);
  }
  return circuit;
}

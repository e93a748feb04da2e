import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/connection';

const KEY_PREFIX = 'premium:sign-in-state:';
const STATE = /^[0-9a-f]{32}$/;

/** The Redis key of a sign-in state; exported for tests that expire one. */
export function signInStateKey(state: string): string {
  return `${KEY_PREFIX}${state}`;
}

/**
 * The OAuth `state` of sign-ins in progress (spec §5): 16 random bytes in hex, kept in Redis so that any
 * API replica can check it, for `ttlSeconds`, and good for one callback only.
 */
export interface SignInStateStore {
  issue(): Promise<string>;
  /** True once for a state that was issued and has not expired; false for anything else. */
  consume(state: string): Promise<boolean>;
}

export function createSignInStateStore(redis: RedisClient, ttlSeconds: number): SignInStateStore {
  return {
    async issue() {
      const state = randomBytes(16).toString('hex');
      await redis.set(signInStateKey(state), '1', 'EX', ttlSeconds);
      return state;
    },
    async consume(state) {
      return STATE.test(state) && (await redis.getdel(signInStateKey(state))) !== null;
    },
  };
}

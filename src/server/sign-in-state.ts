import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '../redis/connection';

const STATE = /^[0-9a-f]{32}$/;

/** The Redis key of a sign-in state; exported for tests that expire one. */
export function signInStateKey(keyPrefix: string, state: string): string {
  return `${keyPrefix}sign-in-state:${state}`;
}

/**
 * The OAuth `state` of sign-ins in progress (docs/interface.md): 16 random bytes in hex, kept in Redis so that any
 * API replica can check it, for `ttlSeconds`, and good for one callback only.
 */
export interface SignInStateStore {
  issue(): Promise<string>;
  /** True once for a state that was issued and has not expired; false for anything else. */
  consume(state: string): Promise<boolean>;
}

export function createSignInStateStore(
  redis: RedisClient,
  keyPrefix: string,
  ttlSeconds: number,
): SignInStateStore {
  return {
    async issue() {
      const state = randomBytes(16).toString('hex');
      await redis.set(signInStateKey(keyPrefix, state), '1', 'EX', ttlSeconds);
      return state;
    },
    async consume(state) {
      return STATE.test(state) && (await redis.getdel(signInStateKey(keyPrefix, state))) !== null;
    },
  };
}

/** Whether the state the callback carries is the one this browser's cookie holds. */
export function sameState(fromCallback: string, fromCookie: string | undefined): boolean {
  if (fromCookie === undefined || !STATE.test(fromCookie) || fromCallback.length !== fromCookie.length)
    return false;
  return timingSafeEqual(Buffer.from(fromCallback), Buffer.from(fromCookie));
}

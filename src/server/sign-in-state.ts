import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '../redis/connection';
import { redisCircuit } from './redis-circuit';

const STATE = /^[0-9a-f]{32}$/;

/** The Redis key of a sign-in state; exported for tests that expire one. */
export function signInStateKey(keyPrefix: string, state: string): string {
  return `${keyPrefix}sign-in-state:${state}`;
}

/** What a sign-in is for: the app's session token, or the seller's console (operators only). */
export type SignInPurpose = 'app' | 'console';

/**
 * The OAuth `state` of sign-ins in progress (docs/interface.md): 16 random bytes in hex, kept in Redis so that any
 * API replica can check it, for `ttlSeconds`, and good for one callback only. It remembers the purpose.
 */
export interface SignInStateStore {
  issue(purpose?: SignInPurpose): Promise<string>;
  /** The purpose, once, for a state that was issued and has not expired; null for anything else. */
  consume(state: string): Promise<SignInPurpose | null>;
}

export function createSignInStateStore(
  redis: RedisClient,
  keyPrefix: string,
  ttlSeconds: number,
): SignInStateStore {
  const circuit = redisCircuit(redis);
  return {
    async issue(purpose = 'app') {
      const state = randomBytes(16).toString('hex');
      // '1' is what every app sign-in stored before the console existed: states in flight at a deploy.
      await circuit.send((client) =>
        client.set(
          signInStateKey(keyPrefix, state),
          purpose === 'console' ? 'console' : '1',
          'EX',
          ttlSeconds,
        ),
      );
      return state;
    },
    async consume(state) {
      if (!STATE.test(state)) return null;
      const stored = await circuit.send((client) => client.getdel(signInStateKey(keyPrefix, state)));
      if (stored === null) return null;
      return stored === 'console' ? 'console' : 'app';
    },
  };
}

/** Whether the state the callback carries is the one this browser's cookie holds. */
export function sameState(fromCallback: string, fromCookie: string | undefined): boolean {
  if (fromCookie === undefined || !STATE.test(fromCookie) || fromCallback.length !== fromCookie.length)
    return false;
  return timingSafeEqual(Buffer.from(fromCallback), Buffer.from(fromCookie));
}

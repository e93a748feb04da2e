import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/connection';
import { redisCircuit } from './redis-circuit';

/**
 * Session tokens signed out before they expire (POST /api/auth/logout), kept in Redis so that every API
 * replica refuses them, each only until the token would have expired anyway. Keyed by the token's
 * digest: the token itself is a credential, and Redis need not hold it.
 */
export interface SessionRevocations {
  revoke(token: string, acceptedUntilMs: number): Promise<void>;
  isRevoked(token: string): Promise<boolean>;
}

export function createSessionRevocations(redis: RedisClient, keyPrefix: string): SessionRevocations {
  const circuit = redisCircuit(redis);
  const key = (token: string) =>
    `${keyPrefix}session-ended:${createHash('sha256').update(token).digest('base64url')}`;
  return {
    async revoke(token, acceptedUntilMs) {
      const ttlMs = Math.ceil(acceptedUntilMs - Date.now());
      if (ttlMs > 0) await circuit.send((client) => client.set(key(token), '1', 'PX', ttlMs));
    },
    async isRevoked(token) {
      return (await circuit.send((client) => client.exists(key(token)))) === 1;
    },
  };
}

import { User } from '../../src/core/models';
import { resolvePlan } from '../../src/core/plans';
import type { GrantRequest } from '../../src/core/premium/grant';

let nextId = 100_000_000_000_000_000n;

/** A Discord-like snowflake, unique within the run. */
export function snowflake(): string {
  nextId += 1n + BigInt(Math.floor(Math.random() * 1000));
  return nextId.toString();
}

export function createUser(
  overrides: Partial<{ providerId: string; username: string; premiumExpiresAt: Date | null }> = {},
) {
  return User.create({
    providerId: overrides.providerId ?? snowflake(),
    username: overrides.username ?? 'fan',
    avatar: 'https://cdn.discordapp.com/embed/avatars/0.png',
    premiumExpiresAt: overrides.premiumExpiresAt ?? null,
  });
}

let nextKey = 0;

/** A USER Monthly manual grant for `providerId`, with a fresh idempotency key unless one is given. */
export function grantRequest(providerId: string, overrides: Partial<GrantRequest> = {}): GrantRequest {
  return {
    category: 'USER',
    providerId,
    plan: resolvePlan('Monthly'),
    source: 'manual',
    actor: 'test',
    reason: 'test grant',
    idempotencyKey: `test:${process.pid}:${++nextKey}`,
    ...overrides,
  };
}

export const DAY_MS = 86_400_000;

import { Order, User } from '../../src/core/models';
import { CUSTOM_PLAN, DEFAULT_TIER, type Plan } from '../../src/core/plans';
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

/** The seed catalog's plans, as the migration creates them: Monthly 30 days, Yearly 365, Custom N × 30. */
const SEED_DAYS: Record<string, number> = { Monthly: 30, Yearly: 365 };

/** What a grant of one of the seed catalog's plans adds, without reading the catalog. */
export function seedPlan(planType: string, months?: number | null): Plan {
  return planType === CUSTOM_PLAN
    ? { planType, months: months!, durationDays: months! * 30, tier: DEFAULT_TIER }
    : { planType, months: null, durationDays: SEED_DAYS[planType]!, tier: DEFAULT_TIER };
}

let nextKey = 0;

/**
 * A USER Monthly manual grant for `providerId`, with a fresh idempotency key unless one is given; `tier`
 * makes its plan's days days of that tier.
 */
export function grantRequest(
  providerId: string,
  { tier, ...overrides }: Partial<GrantRequest> & { tier?: string } = {},
): GrantRequest {
  const request: GrantRequest = {
    category: 'USER',
    providerId,
    plan: seedPlan('Monthly'),
    source: 'manual',
    actor: 'test',
    reason: 'test grant',
    idempotencyKey: `test:${process.pid}:${++nextKey}`,
    ...overrides,
  };
  return tier === undefined ? request : { ...request, plan: { ...request.plan, tier } };
}

export const DAY_MS = 86_400_000;

let nextOrder = 0;

/** An unpaid USER Monthly order row, as create-order stores one, without asking any processor. */
export function createOrderRow(buyerUserId: number, overrides: Partial<Order['_creationAttributes']> = {}) {
  nextOrder += 1;
  return Order.create({
    processorOrderId: `order_Row${String(nextOrder).padStart(11, '0')}`,
    receipt: `rcpt_row_${nextOrder}`,
    buyerUserId,
    category: 'USER',
    guildId: null,
    planType: 'Monthly',
    months: null,
    durationDays: 30,
    amountPaise: 19_900,
    ...overrides,
  });
}

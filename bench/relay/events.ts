import { randomUUID } from 'node:crypto';
import type { PremiumEventPayload } from '../../src/core/premium/types';

export type EventContent = Omit<PremiumEventPayload, 'eventId' | 'occurredAt'>;

const DAY_MS = 86_400_000;

/** The `i`-th of a realistic mix of grants: USER and SERVER, Monthly and Yearly, from checkout. */
export function sampleEventContent(i: number): EventContent {
  const server = i % 2 === 1;
  const yearly = i % 5 === 0;
  const durationDays = yearly ? 365 : 30;
  return {
    type: server ? 'SERVER_PREMIUM_ADD' : 'USER_PREMIUM_ADD',
    providerId: String(700_000_000_000_000_000n + BigInt(i)),
    guildId: server ? String(800_000_000_000_000_000n + BigInt(i)) : null,
    category: server ? 'SERVER' : 'USER',
    planType: yearly ? 'Yearly' : 'Monthly',
    durationDays,
    slots: 1,
    expiresAt: new Date(Date.now() + durationDays * DAY_MS).toISOString(),
    version: 1 + (i % 7),
    orderId: `order_${i.toString(36).padStart(14, '0')}`,
    source: 'checkout',
    tier: 'premium',
    features: {},
  };
}

/** `count` complete payloads, as `appendEvent` would have written them. */
export function sampleEvents(count: number): PremiumEventPayload[] {
  const occurredAt = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    ...sampleEventContent(i),
    eventId: randomUUID(),
    occurredAt,
  }));
}

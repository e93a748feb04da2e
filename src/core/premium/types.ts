export const CATEGORIES = ['USER', 'SERVER'] as const;
export type Category = (typeof CATEGORIES)[number];

export const GRANT_SOURCES = [
  'checkout',
  'webhook',
  'reconcile',
  'manual',
  'subscription',
  'code',
  'transfer',
  'trial',
  'bundle',
] as const;
export type GrantSource = (typeof GRANT_SOURCES)[number];

/** The tier of every day sold before the catalog, and of a grant that names none (migration 026 seeds it). */
export { DEFAULT_TIER } from '../plans';

/** A tier's features, as the catalog holds them (`tiers.features`): a JSON object. */
export type TierFeatures = Record<string, unknown>;

/**
 * What an event says happened to a record. UPDATE: a grant, a revoke or time changed which tier runs
 * while premium goes on (docs/events.md); it stands instead of the ADD or REMOVE of that change.
 */
export type PremiumEventKind = 'ADD' | 'REMOVE' | 'UPDATE' | 'EXPIRING' | 'RENEWAL_FAILED' | 'TRIAL_ENDING';
export type PremiumEventType = `${Category}_PREMIUM_${PremiumEventKind}`;

/** The `payload` field of every stream entry (docs/events.md). */
export interface PremiumEventPayload {
  eventId: string;
  type: PremiumEventType;
  occurredAt: string;
  providerId: string;
  guildId: string | null;
  category: Category;
  planType: string | null;
  durationDays: number;
  slots: number;
  expiresAt: string;
  version: number;
  orderId: string | null;
  source: GrantSource | 'expiry';
  /** The running tier after this event (EXPIRING, RENEWAL_FAILED: the running one); null when not premium. */
  tier: string | null;
  /** That tier's features; `{}` when `tier` is null. */
  features: TierFeatures;
  reason?: string;
  /** Changes made by a subscription (source `subscription`), and RENEWAL_FAILED. */
  subscriptionId?: string;
  /** RENEWAL_FAILED: when premium runs out unless a retried charge succeeds. */
  graceUntil?: string;
  /** The ADD of a trial's days (source `trial`), and TRIAL_ENDING. */
  trial?: true;
  /** TRIAL_ENDING: when the first charge comes, and how much it is (INR). */
  firstChargeAt?: string;
  amount?: number;
}

export function eventTypeFor(category: Category, change: PremiumEventKind): PremiumEventType {
  return `${category}_PREMIUM_${change}`;
}

/** What a grant or revoke did; a replayed idempotency key returns the first call's change. */
export interface PremiumChange {
  grantId: number;
  kind: 'grant' | 'revoke';
  category: Category;
  providerId: string;
  guildId: string | null;
  planType: string | null;
  /** The tier whose days the change moved (an operator's end of a record: the tier that was running). */
  tier: string;
  days: number;
  expiresBefore: Date | null;
  expiresAt: Date;
  version: number;
  eventId: string;
  source: GrantSource;
  replayed: boolean;
}

/**
 * What is left of one grant's days (a refund, a dispute, a transfer, an operator undoing a grant), or the
 * grace a grant put past a cancelled subscription's end (GraceCut), or that `share` of what it added, rounded up to whole days and never more than is left (a dispute of part of a
 * payment); or everything a user or guild has left.
 */
export type RevokeTarget =
  | { grantId: number; share?: number }
  | GraceCut
  | { category: 'USER'; providerId: string }
  | { category: 'SERVER'; guildId: string };

/**
 * What grant `graceOf` runs its tier past `until` (a cancelled subscription's paid cycle or trial end), at
 * most `atMostMs` of it (the grace its subscription's grants added): a cut of the record, not a revoke of
 * the grant, which a refund of its payment can still take.
 */
export interface GraceCut {
  graceOf: number;
  until: Date;
  atMostMs: number;
}

export interface RevokeRequest {
  target: RevokeTarget;
  source: GrantSource;
  actor: string;
  reason: string;
  idempotencyKey: string;
  /** The Razorpay subscription whose charge is taken back; its event names it. */
  subscriptionId?: string | null;
  /**
   * The days taken go back at once as days of another tier (an upgrade's refund or dispute turns them back
   * into the lower tier's: convert.ts); `days`: only that many, the rest staying in the grant's own tier.
   */
  convertTo?: Conversion;
}

export interface Conversion {
  tier: string;
  days?: number;
}

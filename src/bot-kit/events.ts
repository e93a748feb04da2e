/**
 * The events of the `premium:events` stream as a bot receives them (docs/events.md). Standalone on
 * purpose: a bot imports this kit without the service's code.
 */
export type Category = 'USER' | 'SERVER';

export const EVENT_TYPES = [
  'USER_PREMIUM_ADD',
  'SERVER_PREMIUM_ADD',
  'USER_PREMIUM_REMOVE',
  'SERVER_PREMIUM_REMOVE',
  'USER_PREMIUM_UPDATE',
  'SERVER_PREMIUM_UPDATE',
  'USER_PREMIUM_EXPIRING',
  'SERVER_PREMIUM_EXPIRING',
  'USER_PREMIUM_RENEWAL_FAILED',
  'SERVER_PREMIUM_RENEWAL_FAILED',
  'USER_PREMIUM_TRIAL_ENDING',
  'SERVER_PREMIUM_TRIAL_ENDING',
] as const;
export type PremiumEventType = (typeof EVENT_TYPES)[number];

/** A tier's features, as the service's catalog holds them: a JSON object (`{"music": true}`). */
export type Features = Record<string, unknown>;

/** What every event says about its record: the record's state at `version`. */
interface EventBase {
  eventId: string;
  occurredAt: string;
  /** The holder of a USER record, or the buyer of a SERVER one. */
  providerId: string;
  /** The guild of a SERVER record; null for USER. */
  guildId: string | null;
  category: Category;
  planType: string | null;
  durationDays: number;
  slots: number;
  /** The record's absolute expiry after this event (ISO 8601, UTC). */
  expiresAt: string;
  version: number;
  orderId: string | null;
  source: string;
  /** The running tier after this event; null when not premium (or from a service before tiers). */
  tier: string | null;
  /** That tier's features; `{}` when none. */
  features: Features;
}

/** Premium granted or extended: `version` is newer than every earlier event of the record. */
export interface PremiumAdded extends EventBase {
  type: 'USER_PREMIUM_ADD' | 'SERVER_PREMIUM_ADD';
}
/** Premium taken away or run out (`reason`: the operator's, a refund, a dispute, `expired`, ...). */
export interface PremiumRemoved extends EventBase {
  type: 'USER_PREMIUM_REMOVE' | 'SERVER_PREMIUM_REMOVE';
  reason?: string;
}
/**
 * The running tier changed while premium goes on (an upgrade, a higher tier ending over a lower one, a
 * refund of the higher one): `tier` and `features` are the new ones. Stands instead of the change's ADD or
 * REMOVE, so it has a new version as they do.
 */
export interface PremiumUpdated extends EventBase {
  type: 'USER_PREMIUM_UPDATE' | 'SERVER_PREMIUM_UPDATE';
  reason?: string;
}
/** A reminder: the record expires at `expiresAt`, within EXPIRY_REMINDER_DAYS, and nothing renews it. */
export interface PremiumExpiring extends EventBase {
  type: 'USER_PREMIUM_EXPIRING' | 'SERVER_PREMIUM_EXPIRING';
}
/** A subscription's charge failed: premium runs until `graceUntil` unless a retry succeeds. */
export interface RenewalFailed extends EventBase {
  type: 'USER_PREMIUM_RENEWAL_FAILED' | 'SERVER_PREMIUM_RENEWAL_FAILED';
  subscriptionId: string;
  graceUntil: string;
}

/**
 * A trial's first charge is near (at least 24 hours ahead): `firstChargeAt`, `amount` in INR. Once per
 * trial; the ADD that started the trial says `trial: true`.
 */
export interface TrialEnding extends EventBase {
  type: 'USER_PREMIUM_TRIAL_ENDING' | 'SERVER_PREMIUM_TRIAL_ENDING';
  subscriptionId: string;
  trial: true;
  firstChargeAt: string;
  amount: number;
}

export type PremiumEvent =
  PremiumAdded | PremiumRemoved | PremiumUpdated | PremiumExpiring | RenewalFailed | TrialEnding;

/**
 * ADD, REMOVE and UPDATE change the record (a new version); EXPIRING, RENEWAL_FAILED and TRIAL_ENDING
 * repeat its current one.
 */
export function changesRecord(event: PremiumEvent): boolean {
  return (
    !event.type.endsWith('_EXPIRING') &&
    !event.type.endsWith('_RENEWAL_FAILED') &&
    !event.type.endsWith('_TRIAL_ENDING')
  );
}

export type Parsed = { event: PremiumEvent } | { problem: string };

const isString = (value: unknown): value is string => typeof value === 'string';
const isTime = (value: unknown) => isString(value) && !Number.isNaN(Date.parse(value));
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const orNull = (check: (value: unknown) => boolean) => (value: unknown) => value === null || check(value);
const orAbsent = (check: (value: unknown) => boolean) => (value: unknown) =>
  value === undefined || check(value);
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

const FIELD_CHECKS: Record<string, (value: unknown) => boolean> = {
  eventId: isString,
  occurredAt: isTime,
  providerId: isString,
  guildId: orNull(isString),
  planType: orNull(isString),
  durationDays: Number.isInteger,
  slots: isCount,
  expiresAt: isTime,
  version: isCount,
  orderId: orNull(isString),
  source: isString,
  // Absent from the events of a service before tiers.
  tier: orAbsent(orNull(isString)),
  features: orAbsent(isObject),
};

/**
 * Reads one stream entry (fields `id`, `type`, `payload`) into a typed event, or says what is wrong
 * with it. Unknown fields are kept; a missing or mistyped known field is a problem, but for `tier` and
 * `features`, which a service before tiers did not send (read as null and `{}`).
 */
export function parseEntry(fields: string[]): Parsed {
  const entry = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i]!, fields[i + 1]!);
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(entry.get('payload') ?? '') as Record<string, unknown>;
  } catch {
    return { problem: 'payload is not JSON' };
  }
  if (typeof payload !== 'object' || payload === null) return { problem: 'payload is not an object' };
  const type = payload.type as PremiumEventType;
  if (!EVENT_TYPES.includes(type)) return { problem: `unknown type ${JSON.stringify(payload.type)}` };
  if (entry.get('type') !== type || entry.get('id') !== payload.eventId) {
    return { problem: 'the entry fields id and type disagree with the payload' };
  }
  const wrong = Object.keys(FIELD_CHECKS).filter((field) => !FIELD_CHECKS[field]!(payload[field]));
  const category = type.startsWith('USER_') ? 'USER' : 'SERVER';
  if (payload.category !== category) wrong.push('category');
  if ((category === 'SERVER') !== isString(payload.guildId)) wrong.push('guildId');
  if (type.endsWith('_RENEWAL_FAILED')) {
    if (!isString(payload.subscriptionId)) wrong.push('subscriptionId');
    if (!isTime(payload.graceUntil)) wrong.push('graceUntil');
  }
  if (type.endsWith('_TRIAL_ENDING')) {
    if (!isString(payload.subscriptionId)) wrong.push('subscriptionId');
    if (!isTime(payload.firstChargeAt)) wrong.push('firstChargeAt');
    if (typeof payload.amount !== 'number') wrong.push('amount');
  }
  if (wrong.length > 0) return { problem: `bad or missing ${[...new Set(wrong)].join(', ')}` };
  return {
    event: { ...payload, tier: payload.tier ?? null, features: payload.features ?? {} } as PremiumEvent,
  };
}

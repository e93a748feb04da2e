import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { AppError } from '../errors';
import { PremiumGrant, User } from '../models';
import { SLOTS_PER_PURCHASE } from '../plans';
import { aggregateKeyFor, appendEvent } from './outbox';
import type { RecordTarget } from './records';
import {
  eventTypeFor,
  type GrantSource,
  type PremiumChange,
  type PremiumEventKind,
  type PremiumEventPayload,
  type TierFeatures,
} from './types';

/**
 * Serialises every call with the same idempotency key, then returns the change it already made, if any.
 * The lock is transaction-scoped: it is released at commit or rollback. A key already used for another
 * change (`isSameChange` says no: another target, plan or kind) is 409 IDEMPOTENCY_KEY_REUSED, never
 * the first change's answer.
 */
export async function findPriorChange(
  transaction: Transaction,
  idempotencyKey: string,
  isSameChange: (prior: PremiumGrant, providerId: string) => boolean,
): Promise<PremiumChange | null> {
  await takeAdvisoryLock(transaction, 'idempotency', idempotencyKey);
  const prior = await PremiumGrant.findOne({ where: { idempotencyKey }, transaction });
  if (!prior) return null;
  const user = await User.findByPk(prior.userId, { transaction, rejectOnEmpty: true });
  if (!isSameChange(prior, user.providerId)) throw keyReused(idempotencyKey, prior);
  return { ...changeFromLedger(prior, user.providerId), replayed: true };
}

/** 409 IDEMPOTENCY_KEY_REUSED: `idempotencyKey` already made `prior`, another change than the one asked for. */
export function keyReused(idempotencyKey: string, prior: Pick<LedgerRow, 'kind' | 'id'>): AppError {
  return AppError.conflict(
    'IDEMPOTENCY_KEY_REUSED',
    `idempotency key ${idempotencyKey} was used for another change (${prior.kind} #${prior.id}); use a new key`,
  );
}

/** What a change is told from: a ledger model, or a row read with plain SQL (`ledgerRowColumns` in sql.ts). */
export type LedgerRow = Pick<
  PremiumGrant,
  | 'id'
  | 'kind'
  | 'category'
  | 'guildId'
  | 'planType'
  | 'tier'
  | 'days'
  | 'expiresBefore'
  | 'expiresAfter'
  | 'version'
  | 'eventId'
  | 'source'
>;

export function changeFromLedger(row: LedgerRow, providerId: string): PremiumChange {
  return {
    grantId: row.id,
    kind: row.kind,
    category: row.category,
    providerId,
    guildId: row.guildId,
    planType: row.planType,
    tier: row.tier,
    days: row.days,
    expiresBefore: row.expiresBefore,
    expiresAt: row.expiresAfter,
    version: row.version,
    eventId: row.eventId,
    source: row.source,
    replayed: false,
  };
}

/** A change already applied to a locked record, to be written down and announced. */
export interface AppliedChange {
  kind: 'grant' | 'revoke';
  record: RecordTarget;
  providerId: string;
  planType: string | null;
  /** The tier whose days it moved. */
  tier: string;
  /** Days added (grant) or taken (revoke), ≥ 0. */
  days: number;
  expiresBefore: Date | null;
  /** The record after the change: its running tier (null when it ran out) and that tier's features. */
  after: RecordAfter;
  /** The tier that ran before the change; another one running after makes its event an UPDATE. */
  wasTier: string | null;
  source: GrantSource;
  actor: string;
  reason: string | null;
  idempotencyKey: string;
  order: { id: number; processorOrderId: string } | null;
  revokesGrantId: number | null;
  subscriptionId?: string | null;
}

/** A record as a change left it. */
export interface RecordAfter {
  expiresAt: Date;
  version: number;
  tier: string | null;
  features: TierFeatures;
}

/**
 * The kind of a change's event: UPDATE when the change made another tier run while premium goes on (one
 * event per change, so a bot applying by version converges: docs/events.md), else ADD or REMOVE.
 */
export function changeKind(
  kind: 'grant' | 'revoke',
  wasTier: string | null,
  tier: string | null,
): PremiumEventKind {
  if (wasTier !== null && tier !== null && wasTier !== tier) return 'UPDATE';
  return kind === 'grant' ? 'ADD' : 'REMOVE';
}

/** The ADD or REMOVE event of a change, but for what only the changed record knows. */
export function changeEvent(
  change: Pick<
    AppliedChange,
    'kind' | 'providerId' | 'planType' | 'days' | 'source' | 'reason' | 'order' | 'subscriptionId'
  > & { record: Pick<RecordTarget, 'category' | 'guildId'> },
  eventId: string,
): Omit<PremiumEventPayload, 'expiresAt' | 'version' | 'tier' | 'features'> {
  const { kind, record } = change;
  return {
    eventId,
    occurredAt: new Date().toISOString(),
    type: eventTypeFor(record.category, kind === 'grant' ? 'ADD' : 'REMOVE'),
    providerId: change.providerId,
    guildId: record.guildId,
    category: record.category,
    planType: change.planType,
    durationDays: change.days,
    slots: SLOTS_PER_PURCHASE,
    orderId: change.order?.processorOrderId ?? null,
    source: change.source,
    ...(kind === 'revoke' && { reason: change.reason ?? undefined }),
    ...(change.subscriptionId && { subscriptionId: change.subscriptionId }),
    ...(change.source === 'trial' && kind === 'grant' && { trial: true as const }),
  };
}

/**
 * Writes the ledger row of a change and appends its ADD, REMOVE or UPDATE event (docs/events.md payload),
 * both in the change's transaction: the bot hears of exactly the changes that commit. Not `announce`d: the
 * revoke half of a conversion, whose grant, written next, announces the record as both leave it.
 */
export async function recordChange(
  transaction: Transaction,
  change: AppliedChange,
  { announce = true }: { announce?: boolean } = {},
): Promise<PremiumChange> {
  const { kind, record, providerId, after } = change;
  const eventId = randomUUID();
  const ledgerRow = await PremiumGrant.create(
    {
      idempotencyKey: change.idempotencyKey,
      eventId,
      kind,
      category: record.category,
      userId: record.userId,
      guildId: record.guildId,
      planType: change.planType,
      tier: change.tier,
      days: kind === 'grant' ? change.days : -change.days,
      expiresBefore: change.expiresBefore,
      expiresAfter: after.expiresAt,
      source: change.source,
      actor: change.actor,
      reason: change.reason,
      orderId: change.order?.id ?? null,
      revokesGrantId: change.revokesGrantId,
      version: after.version,
    },
    { transaction },
  );
  if (!announce) return changeFromLedger(ledgerRow, providerId);
  await appendEvent(transaction, aggregateKeyFor(record.guildId, providerId), {
    ...changeEvent(change, eventId),
    type: eventTypeFor(record.category, changeKind(kind, change.wasTier, after.tier)),
    expiresAt: after.expiresAt.toISOString(),
    version: after.version,
    tier: after.tier,
    features: after.features,
  });
  return changeFromLedger(ledgerRow, providerId);
}

import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { lockStatement } from '../db/advisory-locks';
import type { PlainQuery } from '../db/plain-query';
import { withPlainTransaction, type PlainTransaction } from '../db/plain-transaction';
import { AppError } from '../errors';
import { unknownUser } from '../users';
import type { Plan } from '../plans';
import { grantStatement, type GrantRow, type OrderPaid } from './grant-statement';
import { selectRows } from '../db/database';
import { changeEvent, changeFromLedger, keyReused } from './ledger';
import { aggregateKeyFor } from './outbox';
import type { RecordOwner } from './records';
import { raiseBuyerExpiry } from './holder-sql';
import { claimRecord, GRANT_REFUSAL } from './sql';
import { DEFAULT_TIER, eventTypeFor, type Category, type GrantSource, type PremiumChange } from './types';

export interface GrantRequest {
  category: Category;
  /** The user who receives USER premium, or who bought SERVER premium. */
  providerId: string;
  /** Required for SERVER, absent for USER. */
  guildId?: string | null;
  /**
   * A transfer moves days of no single plan: its planType is null. `tier`: the catalog tier whose days it
   * adds (DEFAULT_TIER when absent); the days stack by rank (docs/money-rules.md, "Tiers"). A code the
   * catalog does not hold is UNKNOWN_TIER, and nothing is written.
   */
  plan: Omit<Plan, 'planType' | 'tier'> & { planType: Plan['planType'] | null; tier?: string };
  source: GrantSource;
  actor: string;
  reason?: string | null;
  /** The order the grant is for; `paid`: the payment that pays it, marked on the order with the grant. */
  order?: { id: number; processorOrderId: string; paid?: OrderPaid } | null;
  /** The same key twice grants once: the second call returns the first one's change. */
  idempotencyKey: string;
  /** The record runs at least until then, even when its extension by the plan's days ends earlier. */
  atLeastUntil?: Date | null;
  /** The Razorpay subscription that paid for this grant; its event names it. */
  subscriptionId?: string | null;
  /** The grant half of a conversion (convert.ts): announced as an UPDATE of the record, whatever tier runs. */
  converts?: boolean;
}

/** Whether the change a key already made is the one `request` asks for. */
function isSameGrant(request: GrantRequest, row: GrantRow): boolean {
  return (
    row.kind === 'grant' &&
    row.category === request.category &&
    row.providerId === request.providerId &&
    row.guildId === (request.guildId ?? null) &&
    row.planType === request.plan.planType &&
    row.tier === (request.plan.tier ?? DEFAULT_TIER) &&
    row.days === request.plan.durationDays
  );
}

/**
 * The one way premium is granted, so that every path writes the record, the ledger row and the ADD
 * event together. A buyer's own expiry rises only by the days they paid for (docs/money-rules.md). The
 * same idempotency key returns the first change, `replayed`; a key used for another change is
 * IDEMPOTENCY_KEY_REUSED. Pipelined plain SQL, one round trip (docs/performance.md).
 */
export async function grantPremium(
  sequelize: Sequelize,
  request: GrantRequest,
  options: {
    transaction?: Transaction | PlainTransaction;
    /** Nothing follows the grant in the caller's plain transaction: it commits with the grant's statements. */
    endsTransaction?: boolean;
    /**
     * The caller's statements sent right behind the grant's, before the commit, without waiting for the
     * grant's answer (the paid order's invoice): the transaction waits for their answers, and fails with them.
     */
    followedBy?: PlainQuery[];
  } = {},
): Promise<PremiumChange> {
  const owner: RecordOwner = {
    category: request.category,
    providerId: request.providerId,
    guildId: request.guildId ?? null,
  };
  if ((owner.category === 'SERVER') !== (owner.guildId !== null)) {
    throw AppError.validation(
      'INVALID_TARGET',
      'a SERVER grant needs a guild id and a USER grant must not have one',
    );
  }
  const tier = request.plan.tier ?? DEFAULT_TIER;
  const eventId = randomUUID();
  const announced = changeEvent(
    {
      kind: 'grant',
      record: owner,
      providerId: owner.providerId,
      planType: request.plan.planType,
      days: request.plan.durationDays,
      source: request.source,
      reason: request.reason ?? null,
      order: request.order ?? null,
      subscriptionId: request.subscriptionId ?? null,
    },
    eventId,
  );
  const event = request.converts ? { ...announced, type: eventTypeFor(owner.category, 'UPDATE') } : announced;
  return withPlainTransaction(sequelize, options.transaction, async (transaction) => {
    void transaction.rows(lockStatement('idempotency', request.idempotencyKey));
    void transaction.rows(claimRecord(owner, tier));
    const granted = transaction.rows<GrantRow>(
      grantStatement(owner.category, {
        providerId: owner.providerId,
        idempotencyKey: request.idempotencyKey,
        guildId: owner.guildId,
        planType: request.plan.planType,
        tier,
        days: request.plan.durationDays,
        atLeastUntil: request.atLeastUntil ?? null,
        eventId,
        source: request.source,
        actor: request.actor,
        reason: request.reason ?? null,
        orderId: request.order?.id ?? null,
        paid: request.order?.paid ?? null,
        event,
        aggregateKey: aggregateKeyFor(owner.guildId, owner.providerId),
      }),
    );
    if (owner.category === 'SERVER') void transaction.rows(raiseBuyerExpiry(owner));
    // The checks below refuse only what wrote nothing: an unknown user or tier, a key used for another change.
    for (const query of options.followedBy ?? []) void transaction.rows(query);
    if (options.endsTransaction || !options.transaction) transaction.endsHere();
    const [row] = await granted;
    if (!row) throw await refusal(sequelize, owner.providerId, tier);
    if (row.replayed && !isSameGrant(request, row)) throw keyReused(request.idempotencyKey, row);
    return { ...changeFromLedger(row, row.providerId), replayed: row.replayed };
  });
}

/** Why a grant statement wrote nothing and answered nothing: an unknown tier, or an unknown user. */
async function refusal(sequelize: Sequelize, providerId: string, tier: string): Promise<AppError> {
  const [known] = await selectRows<{ tierKnown: boolean; userKnown: boolean }>(sequelize, GRANT_REFUSAL, [
    tier,
    providerId,
  ]);
  if (known && !known.tierKnown) {
    return AppError.validation('UNKNOWN_TIER', `no tier ${JSON.stringify(tier)} in the catalog`);
  }
  return unknownUser(providerId);
}

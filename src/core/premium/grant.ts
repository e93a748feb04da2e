import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { unknownUser } from '../users';
import { PremiumGrant, User } from '../models';
import { SLOTS_PER_PURCHASE, type Plan } from '../plans';
import { changeFromLedger, findPriorChange } from './ledger';
import { aggregateKeyFor, appendEvent } from './outbox';
import { lockRecord, raiseUserExpiry, setRecordExpiry, type RecordTarget } from './records';
import { eventTypeFor, type Category, type GrantSource, type PremiumChange } from './types';

export interface GrantRequest {
  category: Category;
  /** The user who receives USER premium, or who bought SERVER premium. */
  providerId: string;
  /** Required for SERVER, absent for USER. */
  guildId?: string | null;
  plan: Plan;
  source: GrantSource;
  actor: string;
  reason?: string | null;
  order?: { id: number; processorOrderId: string } | null;
  /** The same key twice grants once: the second call returns the first one's change. */
  idempotencyKey: string;
}

/**
 * The one way premium is granted (checkout, webhook, reconcile and manual grants all come here): in one
 * transaction, or inside the caller's, it locks the record, extends it from
 * GREATEST(expiry, now), raises the user's expiry, writes the ledger row and appends the ADD event.
 */
export async function grantPremium(
  sequelize: Sequelize,
  request: GrantRequest,
  options: { transaction?: Transaction } = {},
): Promise<PremiumChange> {
  const guildId = request.guildId ?? null;
  if ((request.category === 'SERVER') !== (guildId !== null)) {
    throw AppError.validation(
      'INVALID_TARGET',
      'a SERVER grant needs a guild id and a USER grant must not have one',
    );
  }
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const prior = await findPriorChange(transaction, request.idempotencyKey);
    if (prior) return prior;

    const user = await User.findOne({ where: { providerId: request.providerId }, transaction });
    if (!user) throw unknownUser(request.providerId);

    const target: RecordTarget = { category: request.category, userId: user.id, guildId };
    const before = await lockRecord(transaction, target);
    const after = await setRecordExpiry(transaction, target, { extendDays: request.plan.durationDays });
    await raiseUserExpiry(transaction, user.id, after.expiresAt);

    const eventId = randomUUID();
    const ledgerRow = await PremiumGrant.create(
      {
        idempotencyKey: request.idempotencyKey,
        eventId,
        kind: 'grant',
        category: request.category,
        userId: user.id,
        guildId,
        planType: request.plan.planType,
        days: request.plan.durationDays,
        expiresBefore: before.expiresAt,
        expiresAfter: after.expiresAt,
        source: request.source,
        actor: request.actor,
        reason: request.reason ?? null,
        orderId: request.order?.id ?? null,
        revokesGrantId: null,
        version: after.version,
      },
      { transaction },
    );
    await appendEvent(transaction, aggregateKeyFor(guildId, user.providerId), {
      eventId,
      type: eventTypeFor(request.category, 'ADD'),
      providerId: user.providerId,
      guildId,
      category: request.category,
      planType: request.plan.planType,
      durationDays: request.plan.durationDays,
      slots: SLOTS_PER_PURCHASE,
      expiresAt: after.expiresAt.toISOString(),
      version: after.version,
      orderId: request.order?.processorOrderId ?? null,
      source: request.source,
    });
    return changeFromLedger(ledgerRow, user.providerId);
  });
}

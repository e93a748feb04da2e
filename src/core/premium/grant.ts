import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { unknownUser } from '../users';
import { User } from '../models';
import type { Plan } from '../plans';
import { findPriorChange, recordChange } from './ledger';
import { lockRecord, raiseUserExpiry, setRecordExpiry, type RecordTarget } from './records';
import type { Category, GrantSource, PremiumChange } from './types';

export interface GrantRequest {
  category: Category;
  /** The user who receives USER premium, or who bought SERVER premium. */
  providerId: string;
  /** Required for SERVER, absent for USER. */
  guildId?: string | null;
  /** A transfer moves days of no single plan: its planType is null. */
  plan: Omit<Plan, 'planType'> & { planType: Plan['planType'] | null };
  source: GrantSource;
  actor: string;
  reason?: string | null;
  order?: { id: number; processorOrderId: string } | null;
  /** The same key twice grants once: the second call returns the first one's change. */
  idempotencyKey: string;
  /** The record runs at least until then, even when its extension by the plan's days ends earlier. */
  atLeastUntil?: Date | null;
  /** The Razorpay subscription that paid for this grant; its event names it. */
  subscriptionId?: string | null;
}

/**
 * The one way premium is granted (checkout, webhook, reconcile and manual grants all come here): in one
 * transaction, or inside the caller's, it locks the record, extends it from
 * GREATEST(expiry, now), writes the ledger row, appends the ADD event and raises the user's expiry: to
 * the record's for USER premium; for SERVER premium only by the days this buyer paid for on that guild
 * (`raiseUserExpiry`), never by days other buyers gave it.
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
    const prior = await findPriorChange(
      transaction,
      request.idempotencyKey,
      (row, providerId) =>
        row.kind === 'grant' &&
        row.category === request.category &&
        providerId === request.providerId &&
        row.guildId === guildId &&
        row.planType === request.plan.planType &&
        row.days === request.plan.durationDays,
    );
    if (prior) return prior;

    const user = await User.findOne({ where: { providerId: request.providerId }, transaction });
    if (!user) throw unknownUser(request.providerId);

    const target: RecordTarget = { category: request.category, userId: user.id, guildId };
    const before = await lockRecord(transaction, target);
    const after = await setRecordExpiry(transaction, target, {
      extendDays: request.plan.durationDays,
      atLeastUntil: request.atLeastUntil ?? null,
    });
    const recorded = await recordChange(transaction, {
      kind: 'grant',
      record: target,
      providerId: user.providerId,
      planType: request.plan.planType,
      days: request.plan.durationDays,
      expiresBefore: before.expiresAt,
      after,
      source: request.source,
      actor: request.actor,
      reason: request.reason ?? null,
      idempotencyKey: request.idempotencyKey,
      order: request.order ?? null,
      revokesGrantId: null,
      subscriptionId: request.subscriptionId ?? null,
    });
    // After the ledger row: a SERVER grant counts for its buyer only by the days it paid for.
    await raiseUserExpiry(transaction, target);
    return recorded;
  });
}

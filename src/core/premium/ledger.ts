import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { PremiumGrant, User } from '../models';
import type { PremiumChange } from './types';

/**
 * The two-key advisory-lock space, apart from the scheduler's one-key job locks, so that no idempotency
 * key can ever contend with a job's lock.
 */
const IDEMPOTENCY_LOCK_CLASS = 1;

/**
 * Serialises every call with the same idempotency key, then returns the change it already made, if any.
 * The lock is transaction-scoped: it is released at commit or rollback.
 */
export async function findPriorChange(
  transaction: Transaction,
  idempotencyKey: string,
): Promise<PremiumChange | null> {
  await selectRows(transaction, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [
    IDEMPOTENCY_LOCK_CLASS,
    idempotencyKey,
  ]);
  const prior = await PremiumGrant.findOne({ where: { idempotencyKey }, transaction });
  if (!prior) return null;
  const user = await User.findByPk(prior.userId, { transaction, rejectOnEmpty: true });
  return { ...changeFromLedger(prior, user.providerId), replayed: true };
}

export function changeFromLedger(row: PremiumGrant, providerId: string): PremiumChange {
  return {
    grantId: row.id,
    kind: row.kind,
    category: row.category,
    providerId,
    guildId: row.guildId,
    planType: row.planType,
    days: row.days,
    expiresBefore: row.expiresBefore,
    expiresAt: row.expiresAfter,
    version: row.version,
    eventId: row.eventId,
    source: row.source,
    replayed: false,
  };
}

import type { Sequelize, Transaction } from 'sequelize';
import { releaseHeldBinding } from '../bundles';
import { selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { PremiumGrant } from '../models';
import { revokePremium, type RevokeRequest } from '../premium/revoke';
import type { PremiumChange } from '../premium/types';
import { refundShareRowOf } from '../purchase-kinds';
import { releaseRefundedShare } from '../refunds/release-share';
import { grantCarryingDaysOf } from '../premium/days-trail';
import { listHeldRevokes, type HeldRevokeRow } from '../revocation-guard/held-revokes';
import { LOCK_HELD, MARK_RELEASED } from '../revocation-guard/sql';

export interface ReleasedRevoke {
  id: number;
  idempotencyKey: string;
  /** `revoked`: the ledger's revoke row; `nothing taken`: refused as it would be now, or released meanwhile. */
  result: 'revoked' | 'nothing taken';
  detail: string;
  change: PremiumChange | null;
}

/**
 * An operator's release of held revokes (`ids`, or every one held, oldest first): each is applied now, as
 * it was asked for, past the guard, in a transaction of its own (applyReleased). One that no longer
 * applies (the premium ran out, an operator revoked it already) is released with nothing taken. Ids not
 * held are refused before anything.
 */
export async function releaseHeldRevokes(
  sequelize: Sequelize,
  which: number[] | 'all',
  releasedBy: string,
  onProgress?: (done: number, total: number) => void,
): Promise<ReleasedRevoke[]> {
  const held = await listHeldRevokes(sequelize);
  const chosen = which === 'all' ? held : held.filter((row) => which.includes(row.id));
  if (which !== 'all' && chosen.length !== which.length) {
    const missing = which.filter((id) => !held.some((row) => row.id === id));
    throw AppError.notFound('HELD_REVOKE_NOT_FOUND', `no held revoke with id ${missing.join(', ')}`);
  }
  const released: ReleasedRevoke[] = [];
  for (const row of chosen) {
    released.push(await releaseOne(sequelize, row, releasedBy));
    onProgress?.(released.length, chosen.length);
  }
  return released;
}

async function releaseOne(
  sequelize: Sequelize,
  row: HeldRevokeRow,
  releasedBy: string,
): Promise<ReleasedRevoke> {
  return sequelize.transaction(async (transaction) => {
    const answer = (outcome: Omit<ReleasedRevoke, 'id' | 'idempotencyKey'>): ReleasedRevoke => ({
      id: row.id,
      idempotencyKey: row.request.idempotencyKey,
      ...outcome,
    });
    const [locked] = await selectRows(transaction, LOCK_HELD, [row.id]);
    // Withdrawn by its won dispute, or released by another operator, since the list was read.
    if (!locked) {
      const detail = `HELD_REVOKE_RELEASED: held revoke ${row.id} was released meanwhile`;
      return answer({ result: 'nothing taken', detail, change: null });
    }
    let outcome: Omit<ReleasedRevoke, 'id' | 'idempotencyKey'>;
    try {
      const { change, detail } = await sequelize.transaction({ transaction }, (savepoint) =>
        applyReleased(sequelize, savepoint, row.request),
      );
      outcome = { result: 'revoked', detail, change };
    } catch (error) {
      if (!isAppError(error) || error.kind === 'unavailable') throw error;
      outcome = { result: 'nothing taken', detail: `${error.code}: ${error.message}`, change: null };
    }
    // A bundle's binding it held is bound until now: unbound, or moved to what is left of its share.
    const { source, actor, reason, idempotencyKey } = row.request;
    await releaseHeldBinding(sequelize, transaction, row.id, outcome.change, {
      source,
      actor,
      reason,
      idempotencyKey,
    });
    await selectRows(transaction, MARK_RELEASED, [
      row.id,
      releasedBy,
      `${outcome.result}: ${outcome.detail}`,
    ]);
    return answer(outcome);
  });
}

/** A held revoke applied as it was asked for; a partial refund's takes that refund's share of the days. */
async function applyReleased(
  sequelize: Sequelize,
  transaction: Transaction,
  request: RevokeRequest,
): Promise<{ change: PremiumChange; detail: string }> {
  const refundRow = refundShareRowOf(request.idempotencyKey);
  if (refundRow !== null) return releaseRefundedShare(sequelize, transaction, refundRow, request);
  const change = await revokePremium(sequelize, await whereTheDaysAreNow(transaction, request), {
    transaction,
    released: true,
  });
  if (!('grantId' in change)) throw new Error('a released revoke was held again');
  return { change, detail: `ledger row ${change.grantId}` };
}

/**
 * The held request aimed at the grant that carries its days now: a transfer since the hold revoked the
 * grant it named and granted its days anew elsewhere, and those are the days the payment no longer pays
 * for. A share (a dispute of part of a payment) stays a share of the days first bought.
 */
async function whereTheDaysAreNow(transaction: Transaction, request: RevokeRequest): Promise<RevokeRequest> {
  const { target } = request;
  if (!('grantId' in target)) return request;
  const named = await PremiumGrant.findByPk(target.grantId, { transaction });
  if (!named) return request;
  const carrying = await grantCarryingDaysOf(transaction, named);
  if (carrying.id === named.id) return request;
  const moved = await PremiumGrant.findByPk(carrying.id, { transaction, rejectOnEmpty: true });
  const share =
    target.share === undefined ? undefined : Math.min(1, (target.share * named.days) / moved.days);
  return { ...request, target: { grantId: moved.id, share } };
}

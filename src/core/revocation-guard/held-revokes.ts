import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { revokePremium, type RevokeRequest } from '../premium/revoke';
import type { PremiumChange } from '../premium/types';
import { COUNT_HELD, LIST_HELD, LOCK_HELD, MARK_RELEASED, WITHDRAW_HELD } from './sql';

export interface HeldRevokeRow {
  id: number;
  heldAt: Date;
  request: RevokeRequest;
}

export interface ReleasedRevoke {
  id: number;
  idempotencyKey: string;
  /** `revoked`: the ledger's revoke row; `nothing taken`: refused as it would be now (premium gone). */
  result: 'revoked' | 'nothing taken';
  detail: string;
  change: PremiumChange | null;
}

/** Revokes the guard holds, oldest first. */
export async function listHeldRevokes(sequelize: Sequelize): Promise<HeldRevokeRow[]> {
  const rows = await sequelize.query<HeldRevokeRow>(LIST_HELD, { type: QueryTypes.SELECT });
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function countHeldRevokes(sequelize: Sequelize): Promise<number> {
  const [row] = await sequelize.query<{ held: number }>(COUNT_HELD, { type: QueryTypes.SELECT });
  return row!.held;
}

/**
 * Withdraws the held revoke under `idempotencyKey`, if one still waits, because what asked for it no longer
 * stands (its dispute was won): no operator can then release it and take premium that was paid for. It
 * stays in `held_revokes`, released with nothing taken and `reason` as its outcome. Returns whether one
 * was withdrawn.
 */
export async function withdrawHeldRevoke(
  transaction: Transaction,
  idempotencyKey: string,
  withdrawnBy: string,
  reason: string,
): Promise<boolean> {
  const withdrawn = await selectRows(transaction, WITHDRAW_HELD, [
    idempotencyKey,
    withdrawnBy,
    `withdrawn: ${reason}`,
  ]);
  return withdrawn.length > 0;
}

/**
 * An operator's release of held revokes (`ids`, or every one held): each is applied now, as it was asked
 * for, past the guard, in a transaction of its own. One that no longer applies (the premium ran out, an
 * operator revoked it already) is released with nothing taken. Ids not held are refused before anything.
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
    const [locked] = await selectRows(transaction, LOCK_HELD, [row.id]);
    if (!locked)
      throw AppError.conflict('HELD_REVOKE_RELEASED', `held revoke ${row.id} was released meanwhile`);
    let outcome: Omit<ReleasedRevoke, 'id' | 'idempotencyKey'>;
    try {
      const change = await sequelize.transaction({ transaction }, (savepoint) =>
        revokePremium(sequelize, row.request, { transaction: savepoint, released: true }),
      );
      if (!('grantId' in change)) throw new Error('a released revoke was held again');
      outcome = { result: 'revoked', detail: `ledger row ${change.grantId}`, change };
    } catch (error) {
      if (!isAppError(error) || error.kind === 'unavailable') throw error;
      outcome = { result: 'nothing taken', detail: `${error.code}: ${error.message}`, change: null };
    }
    await selectRows(transaction, MARK_RELEASED, [
      row.id,
      releasedBy,
      `${outcome.result}: ${outcome.detail}`,
    ]);
    return { id: row.id, idempotencyKey: row.request.idempotencyKey, ...outcome };
  });
}

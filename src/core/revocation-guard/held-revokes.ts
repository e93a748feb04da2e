import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import type { RevokeRequest } from '../premium/revoke';
import { COUNT_HELD, LIST_HELD, WITHDRAW_HELD } from './sql';

export interface HeldRevokeRow {
  id: number;
  heldAt: Date;
  request: RevokeRequest;
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

import type { Sequelize, Transaction } from 'sequelize';
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
  const rows = await selectRows<HeldRevokeRow>(sequelize, LIST_HELD);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function countHeldRevokes(sequelize: Sequelize): Promise<number> {
  const [row] = await selectRows<{ held: number }>(sequelize, COUNT_HELD);
  return row!.held;
}

/**
 * Withdraws the held revokes under `idempotencyKeys` that still wait, because what asked for them no longer
 * stands (their payment's disputes were won): no operator can then release them and take premium that was
 * paid for. They stay in `held_revokes`, released with nothing taken and `reason` as their outcome.
 */
export async function withdrawHeldRevokes(
  transaction: Transaction,
  idempotencyKeys: string[],
  withdrawnBy: string,
  reason: string,
): Promise<void> {
  await selectRows(transaction, WITHDRAW_HELD, [idempotencyKeys, withdrawnBy, `withdrawn: ${reason}`]);
}

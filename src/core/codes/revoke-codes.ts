import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { LOCK_CODES_TO_REVOKE, REVOKE_CODES } from './sql';

export interface RevokeCodesRequest {
  /** The codes, by id; or `batchId` for all of a batch. */
  codeIds?: number[];
  batchId?: number;
  actor: string;
  reason: string;
}

export interface RevokedCodes {
  revoked: number[];
  /** Codes left as they were: already redeemed (revoke the grant instead) or already revoked. */
  skipped: { codeId: number; reason: string }[];
}

/**
 * Withdraws codes that nobody has redeemed, so that redeeming them is refused (CODE_REVOKED). An unknown
 * id (or an empty batch) changes nothing at all: CODE_NOT_FOUND.
 */
export function revokeCodes(sequelize: Sequelize, request: RevokeCodesRequest): Promise<RevokedCodes> {
  return sequelize.transaction(async (transaction) => {
    const codes = await selectRows<{ id: number; redeemed: boolean; revoked: boolean }>(
      transaction,
      LOCK_CODES_TO_REVOKE,
      [request.codeIds ?? [], request.batchId ?? null],
    );
    const missing = (request.codeIds ?? []).filter((id) => !codes.some((code) => code.id === id));
    if (missing.length > 0)
      throw AppError.notFound('CODE_NOT_FOUND', `no code with id ${missing.join(', ')}`);
    if (codes.length === 0)
      throw AppError.notFound('CODE_NOT_FOUND', `batch ${request.batchId} has no codes`);

    const result: RevokedCodes = { revoked: [], skipped: [] };
    for (const code of codes) {
      if (code.redeemed) result.skipped.push({ codeId: code.id, reason: 'already redeemed' });
      else if (code.revoked) result.skipped.push({ codeId: code.id, reason: 'already revoked' });
      else result.revoked.push(code.id);
    }
    await execute(transaction, REVOKE_CODES, [result.revoked, request.actor, request.reason]);
    return result;
  });
}

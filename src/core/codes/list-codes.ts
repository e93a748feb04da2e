import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { Conditions } from '../admin/sql';
import type { PlanType } from '../plans';
import type { CodeStatus } from './code-status';
import { listCodes as listCodesSql } from './sql';

export { CODE_STATUSES, type CodeStatus } from './code-status';

/** A code as an operator sees it: never the code itself, which is not stored. */
export interface CodeSummary {
  codeId: number;
  batchId: number;
  status: CodeStatus;
  planType: PlanType;
  months: number | null;
  durationDays: number;
  expiresAt: Date | null;
  createdAt: Date;
  reason: string;
  redeemedAt: Date | null;
  /** Discord id of the user who redeemed it. */
  redeemedBy: string | null;
  /** The ledger row of its redemption. */
  grantId: number | null;
  revokedAt: Date | null;
  revokeReason: string | null;
  /** A code bought in the store (docs/codes.md): the payment that made it, and its buyer's Discord id. */
  paymentId: string | null;
  boughtBy: string | null;
}

/** Codes, newest first, optionally of one batch or in one status. */
export function listCodes(
  sequelize: Sequelize,
  filter: { batchId?: number; status?: CodeStatus; limit: number },
): Promise<CodeSummary[]> {
  const where = new Conditions().add('"batchId" = ?', filter.batchId).add('status = ?', filter.status);
  return selectRows<CodeSummary>(
    sequelize,
    listCodesSql(where.toString(), where.param(filter.limit)),
    where.bind,
  );
}

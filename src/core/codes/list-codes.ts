import { QueryTypes, type Sequelize } from 'sequelize';
import { Conditions } from '../admin/sql';
import type { PlanType } from '../plans';

export const CODE_STATUSES = ['unused', 'redeemed', 'revoked', 'expired'] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];

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
}

/** Codes, newest first, optionally of one batch or in one status. */
export function listCodes(
  sequelize: Sequelize,
  filter: { batchId?: number; status?: CodeStatus; limit: number },
): Promise<CodeSummary[]> {
  const where = new Conditions().add('"batchId" = ?', filter.batchId).add('status = ?', filter.status);
  return sequelize.query<CodeSummary>(
    `SELECT * FROM (
       SELECT c.id AS "codeId", c.batch_id AS "batchId",
              CASE WHEN c.redeemed_at IS NOT NULL THEN 'redeemed' WHEN c.revoked_at IS NOT NULL THEN 'revoked'
                   WHEN b.expires_at <= now() THEN 'expired' ELSE 'unused' END AS status,
              b.plan_type AS "planType", b.months, b.duration_days AS "durationDays",
              b.expires_at AS "expiresAt", b.created_at AS "createdAt", b.reason,
              c.redeemed_at AS "redeemedAt", u.provider_id AS "redeemedBy", c.grant_id AS "grantId",
              c.revoked_at AS "revokedAt", c.revoke_reason AS "revokeReason"
       FROM premium_codes c
       JOIN premium_code_batches b ON b.id = c.batch_id
       LEFT JOIN users u ON u.id = c.redeemed_by_user_id) codes
     ${where}
     ORDER BY "codeId" DESC
     LIMIT ${where.param(filter.limit)}`,
    { bind: where.bind, type: QueryTypes.SELECT },
  );
}

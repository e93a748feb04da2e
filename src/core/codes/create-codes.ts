import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import type { Plan } from '../plans';
import { DEFAULT_CODE_LIFETIME_DAYS, MAX_CODES_PER_BATCH } from './batch-limits';
import { canonicalCode, codeSha256, generateCode } from '../code-text';
import { INSERT_BATCH, INSERT_CODES } from './sql';

export { DEFAULT_CODE_LIFETIME_DAYS, MAX_CODES_PER_BATCH } from './batch-limits';

const DAY_MS = 86_400_000;

export interface CreateCodesRequest {
  plan: Plan;
  count: number;
  /** After this instant the codes are refused; null: never; omitted: DEFAULT_CODE_LIFETIME_DAYS from now. */
  expiresAt?: Date | null;
  actor: string;
  reason: string;
}

export interface CodeBatch {
  batchId: number;
  planType: Plan['planType'];
  months: number | null;
  durationDays: number;
  expiresAt: Date | null;
  reason: string;
  /** The codes in clear, with their ids: shown this once, since only their SHA-256 is stored. */
  codes: { codeId: number; code: string }[];
}

/** Creates a batch of single-use codes for one plan, all or none. */
export async function createCodes(sequelize: Sequelize, request: CreateCodesRequest): Promise<CodeBatch> {
  const { plan, count } = request;
  const expiresAt =
    request.expiresAt === undefined
      ? new Date(Date.now() + DEFAULT_CODE_LIFETIME_DAYS * DAY_MS)
      : request.expiresAt;
  if (!Number.isInteger(count) || count < 1 || count > MAX_CODES_PER_BATCH) {
    throw AppError.validation('INVALID_COUNT', `a batch has 1 to ${MAX_CODES_PER_BATCH} codes`);
  }
  if (expiresAt !== null && expiresAt.getTime() <= Date.now()) {
    throw AppError.validation('INVALID_EXPIRY', 'the codes would be expired already');
  }
  const codes = Array.from({ length: count }, generateCode);
  const bySha256 = new Map(codes.map((code) => [codeSha256(canonicalCode(code)!), code]));
  return sequelize.transaction(async (transaction) => {
    const [batch] = await selectRows<{ id: number }>(transaction, INSERT_BATCH, [
      plan.planType,
      plan.months,
      plan.durationDays,
      plan.tier,
      expiresAt,
      request.actor,
      request.reason,
    ]);
    const rows = await selectRows<{ id: number; code_sha256: string }>(transaction, INSERT_CODES, [
      batch!.id,
      [...bySha256.keys()],
    ]);
    return {
      batchId: batch!.id,
      planType: plan.planType,
      months: plan.months,
      durationDays: plan.durationDays,
      expiresAt,
      reason: request.reason,
      codes: rows
        .sort((a, b) => a.id - b.id)
        .map((row) => ({ codeId: row.id, code: bySha256.get(row.code_sha256)! })),
    };
  });
}

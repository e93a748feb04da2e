import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { resolvePurchase } from '../catalog';
import { AppError } from '../errors';
import { targetGuild } from '../identity/access';
import { DEFAULT_CATEGORY } from '../orders/create-order';
import { planOf, type PlanType } from '../plans';
import { grantPremium } from '../premium/grant';
import type { Category, PremiumChange } from '../premium/types';
import { findUserByProviderId } from '../users';
import { canonicalCode, codeSha256 } from '../code-text';
import { assertAttemptsLeft, recordFailedAttempt } from '../users/failed-attempts';
import { lockCode, MARK_REDEEMED } from './sql';

export interface RedeemRequest {
  /** The signed-in user: the code is for them (USER) or for a guild they manage (SERVER). */
  callerProviderId: string;
  code: string;
  category?: Category;
  guildId?: string | null;
  /** The client's IP, for the limit on failed attempts. */
  ip: string;
}

export interface Redemption {
  codeId: number;
  change: PremiumChange;
}

/** How long a redemption is answered again to its caller rather than refused as used. */
const REPLAY_MINUTES = 10;
const LOCK_CODE = lockCode(REPLAY_MINUTES);

interface LockedCode {
  id: number;
  planType: PlanType;
  months: number | null;
  durationDays: number;
  tier: string;
  redeemed: boolean;
  /** Who redeemed it within REPLAY_MINUTES, and for which guild (null: for their own account). */
  redeemedJustNowBy: number | null;
  redeemedForGuildId: string | null;
  revoked: boolean;
  expired: boolean;
}

/**
 * Redeems a gift code once, under the code's row lock, so that of two redemptions at once the second
 * finds it used; the same caller again within REPLAY_MINUTES gets the first answer (docs/api.md, redeem).
 * The ledger's reason names the code's id, never the code. A refused well-formed code counts as a failed
 * attempt (ATTEMPT_LIMITS), so guessing codes is throttled.
 */
export async function redeemCode(sequelize: Sequelize, request: RedeemRequest): Promise<Redemption> {
  const canonical = canonicalCode(request.code);
  if (canonical === null) {
    throw AppError.validation(
      'INVALID_CODE',
      'a code is 16 letters and digits, like 7KQ4-M2ZD-X9TB-HC3W (dashes and spaces are ignored)',
    );
  }
  const user = await findUserByProviderId(request.callerProviderId);
  const category = request.category ?? DEFAULT_CATEGORY;
  const guildId = await targetGuild(user, category, request.guildId ?? null);

  const outcome = await sequelize.transaction(async (transaction) => {
    await assertAttemptsLeft(transaction, user.id, request.ip);
    const code = await lockedCode(transaction, codeSha256(canonical));
    const again = code?.redeemedJustNowBy === user.id && code.redeemedForGuildId === guildId;
    const refusal = again ? null : refusalOf(code);
    if (refusal) {
      await recordFailedAttempt(transaction, user.id, request.ip);
      return { refusal };
    }
    if (!again) {
      // Only where its plan is sold: a code of a user's plan is never a server's premium (PLAN_SCOPE_MISMATCH).
      const plan = { plan: code!.planType, months: code!.months };
      await resolvePurchase(transaction, plan, { category, forSale: false });
    }
    const change = await grantPremium(
      sequelize,
      {
        category,
        providerId: user.providerId,
        guildId,
        plan: planOf(code!),
        source: 'code',
        actor: `user:${user.providerId}`,
        reason: `code #${code!.id}`,
        idempotencyKey: `code:${code!.id}`,
      },
      { transaction },
    );
    if (!change.replayed) {
      await execute(transaction, MARK_REDEEMED, [code!.id, user.id, change.grantId]);
    }
    return { redemption: { codeId: code!.id, change } };
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.redemption;
}

async function lockedCode(transaction: Transaction, sha256: string): Promise<LockedCode | null> {
  const [code] = await selectRows<LockedCode>(transaction, LOCK_CODE, [sha256]);
  return code ?? null;
}

function refusalOf(code: LockedCode | null): AppError | null {
  if (!code) return AppError.notFound('CODE_NOT_FOUND', 'no such code; check it for typos');
  if (code.redeemed) return AppError.conflict('CODE_USED', 'this code has already been used');
  if (code.revoked) return new AppError('gone', 'CODE_REVOKED', 'this code was withdrawn by its issuer');
  if (code.expired) return new AppError('gone', 'CODE_EXPIRED', 'this code has expired');
  return null;
}

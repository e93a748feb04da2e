import type { Sequelize, Transaction } from 'sequelize';
import { PremiumGrant } from '../models';
import { grantTakes } from './each-grant';
import type { LockedPayment } from './payment';
import { grantPremium } from '../premium/grant';
import { revokePremium, type RevokeOptions } from '../premium/revoke';
import type { PremiumChange } from '../premium/types';
import {
  addDaysTakenToLatestRefund,
  daysTakenByRefunds,
  processedTotalOf,
  recordDaysTaken,
} from './refund-records';
import type { RefundedShare } from './types';

/** What a partial refund took: its days, the revoke and the rest restored; or nothing, or held. */
export type TakenShare =
  | { kind: 'taken'; days: number; revoke: PremiumChange; restore: PremiumChange | null }
  | { kind: 'held' }
  | { kind: 'nothing to take' };

const KEY_PREFIX = 'refund-share:';

/** The idempotency key of the revoke that takes the share of refund row `rowId` of `payment_refunds`. */
export const refundShareKey = (rowId: number): string => `${KEY_PREFIX}${rowId}`;

/** The `payment_refunds` row whose share a revoke takes, or null for any other revoke. */
export function refundShareRowOf(idempotencyKey: string): number | null {
  return /^refund-share:(\d+)$/.test(idempotencyKey) ? Number(idempotencyKey.slice(KEY_PREFIX.length)) : null;
}

/**
 * The days the payment's refunds owe and have not taken: `refundedTotal`'s share of the purchase's days,
 * rounded up to whole days, less what its refunds took already (`payment_refunds.days_taken`).
 */
export async function refundDaysOwed(
  transaction: Transaction,
  payment: LockedPayment,
  refundedTotal: number,
): Promise<number> {
  const purchase = await PremiumGrant.findOne({
    where: { kind: 'grant', ...payment.ownGrants },
    order: [['id', 'ASC']],
    transaction,
  });
  if (!purchase || refundedTotal <= 0) return 0;
  const owed = Math.ceil((purchase.days * refundedTotal) / payment.amountPaise);
  return owed - (await daysTakenByRefunds(transaction, payment.paymentId));
}

/**
 * A partial refund takes back the same share of the purchase's days, rounded up to whole days, less what
 * the payment's earlier partial refunds took. The grant the payment pays for (src/core/disputes/README.md)
 * is revoked and what is left of it restored as a new grant that the payment pays for from then on (as
 * a won dispute's restoring grant does), so a later refund or dispute of the payment takes exactly the
 * rest. Days are counted from the payment's refunded total, less what its refunds took already, so
 * refunds applied in any order (or released from the revocation guard in any order) take the sum once.
 */
export async function takeRefundedShare(
  sequelize: Sequelize,
  transaction: Transaction,
  payment: LockedPayment,
  share: RefundedShare,
  options: Pick<RevokeOptions, 'released' | 'maxRevokesPerHour'> = {},
): Promise<TakenShare> {
  const key = refundShareKey(share.recorded.rowId);
  const takes = await grantTakes(transaction, payment, key, options, 'first');
  const days =
    takes.length === 0 ? 0 : await refundDaysOwed(transaction, payment, share.recorded.refundedTotal);
  if (days <= 0) return { kind: 'nothing to take' };

  let [owed, first, restore]: [number, PremiumChange | null, PremiumChange | null] = [days, null, null];
  for (const { grant, idempotencyKey, options: revokeOptions } of takes) {
    if (owed <= 0) break;
    const revoked = await revokePremium(
      sequelize,
      {
        ...payment.premium,
        source: share.source,
        target: { grantId: grant.id },
        actor: share.actor,
        reason: share.reason,
        idempotencyKey,
      },
      revokeOptions,
    );
    // Held by the revocation guard: nothing changed yet; its release takes the share (releaseRefundedShare).
    if (revoked.kind === 'held') return { kind: 'held' };
    first ??= revoked;
    const rest = Math.abs(revoked.days) - owed;
    owed -= Math.abs(revoked.days);
    if (rest > 0)
      restore = await restoreRest(sequelize, transaction, payment, share, revoked, rest, idempotencyKey);
  }
  // A payment's only grant's rest is the grant it pays for from now on; with two (an upgrade's halves)
  // it keeps naming the grant they came from, and grantsPaidFor follows the rest there.
  if (restore && takes.length === 1) await payment.recordRestoreGrant(restore.grantId);
  await recordDaysTaken(transaction, share.recorded.rowId, days);
  return { kind: 'taken', days, revoke: first!, restore };
}

/** What a share's revoke `key` took beyond the share, given back as `rest` days of the tier it took them from. */
function restoreRest(
  sequelize: Sequelize,
  transaction: Transaction,
  payment: LockedPayment,
  share: RefundedShare,
  revoked: PremiumChange,
  rest: number,
  key: string,
): Promise<PremiumChange> {
  return grantPremium(
    sequelize,
    {
      ...payment.plan,
      guildId: revoked.guildId,
      plan: { ...payment.plan.plan, durationDays: rest, tier: revoked.tier },
      ...payment.premium,
      source: share.source,
      actor: share.actor,
      reason: `what is left of ${payment.name} after ${share.reason}`,
      idempotencyKey: `${key}:rest`,
    },
    { transaction },
  );
}

/**
 * What of `days` a won dispute gives back once the payment's refunds have what they owe. A refund applied
 * while the dispute had the premium took nothing (there was nothing to take), so its share stays out of
 * the restore, recorded as taken on the payment's latest refund. Returns the days to give back.
 */
export async function daysLeftAfterRefunds(
  transaction: Transaction,
  payment: LockedPayment,
  days: number,
): Promise<number> {
  const refundedTotal = await processedTotalOf(transaction, payment.paymentId);
  const owed = Math.min(days, await refundDaysOwed(transaction, payment, refundedTotal));
  if (owed <= 0) return days;
  await addDaysTakenToLatestRefund(transaction, payment.paymentId, owed);
  return days - owed;
}

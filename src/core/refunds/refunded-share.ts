import type { Sequelize, Transaction } from 'sequelize';
import { PremiumGrant } from '../models';
import { grantPaidFor } from '../disputes/grant-paid-for';
import type { DisputedPayment } from '../disputes/types';
import { grantPremium } from '../premium/grant';
import { revokePremium } from '../premium/revoke';
import { daysTakenByRefunds, recordDaysTaken, type RecordedRefund } from './refund-records';

export interface RefundedShare {
  paymentId: string;
  /** The payment's amount, in paise. */
  amountPaise: number;
  recorded: RecordedRefund;
  actor: string;
  reason: string;
}

/**
 * A partial refund takes back the same share of the purchase's days, rounded up to whole days, less what
 * the payment's earlier partial refunds took. The grant the payment pays for (src/core/disputes/README.md)
 * is revoked and what is left of it given back as a new grant that the payment pays for from then on (as
 * a won dispute's restoring grant does), so a later refund or dispute of the payment takes exactly the
 * rest. Returns the days taken.
 */
export async function takeRefundedShare(
  sequelize: Sequelize,
  transaction: Transaction,
  payment: DisputedPayment,
  share: RefundedShare,
): Promise<number> {
  const purchase = await PremiumGrant.findOne({
    where: { kind: 'grant', ...payment.ownGrants },
    order: [['id', 'ASC']],
    transaction,
  });
  const grant = await grantPaidFor(payment, transaction);
  if (!purchase || !grant) return 0;
  const owed = Math.ceil((purchase.days * share.recorded.refundedTotal) / share.amountPaise);
  const days = owed - (await daysTakenByRefunds(transaction, share.paymentId));
  if (days <= 0) return 0;

  const key = `refund-share:${share.recorded.rowId}`;
  const revoked = await revokePremium(
    sequelize,
    {
      ...payment.premium,
      target: { grantId: grant.id },
      actor: share.actor,
      reason: share.reason,
      idempotencyKey: key,
    },
    { transaction },
  );
  // Held by the revocation guard: nothing changed yet; the operator who releases it sees its reason.
  if (revoked.kind === 'held') return 0;
  const rest = Math.abs(revoked.days) - days;
  if (rest > 0) {
    const givenBack = await grantPremium(
      sequelize,
      {
        ...payment.plan,
        guildId: revoked.guildId,
        plan: { ...payment.plan.plan, durationDays: rest },
        ...payment.premium,
        actor: share.actor,
        reason: `what is left of ${payment.name} after ${share.reason}`,
        idempotencyKey: `${key}:rest`,
      },
      { transaction },
    );
    await payment.recordGivenBack(givenBack.grantId);
  }
  await recordDaysTaken(transaction, share.recorded.rowId, days);
  return days;
}

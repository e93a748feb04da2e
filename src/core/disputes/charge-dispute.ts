import type { Sequelize, Transaction } from 'sequelize';
import type { RevokeLimit } from '../premium/revoke';
import { lockChargeOfPayment } from '../subscriptions/locked-charge';
import { disputedCharge } from '../subscriptions/disputed-charge';
import { applyDisputeStage } from './stages';
import type { DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback of a subscription's charge, under the order's stage rules (`applyDispute`): `created`
 * revokes the cycle's grant, `won` restores the cycle, `lost` keeps it revoked (the charge
 * `refunded`), `closed` changes no premium; both name the subscription. Returns null when the payment is
 * no charge of ours, so the order path can look at it.
 */
export async function applyChargeDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  transaction: Transaction,
  limit: RevokeLimit = {},
): Promise<DisputeOutcome | null> {
  const locked = await lockChargeOfPayment(transaction, dispute.paymentId);
  if (!locked) return null;
  return applyDisputeStage(sequelize, transaction, disputedCharge(locked, transaction), dispute, limit);
}

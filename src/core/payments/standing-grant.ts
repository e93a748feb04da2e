import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { PremiumGrant, type Order, type SubscriptionCharge } from '../models';

/** Where the premium a payment bought can be: its own grants, and the one a won dispute of it gave back. */
export interface PaymentGrants {
  ownGrants: WhereOptions<PremiumGrant>;
  disputeId: string | null;
}

export function grantsOfOrder(order: Pick<Order, 'id' | 'disputeId'>): PaymentGrants {
  return { ownGrants: { orderId: order.id }, disputeId: order.disputeId };
}

export function grantsOfCharge(charge: Pick<SubscriptionCharge, 'grantId' | 'disputeId'>): PaymentGrants {
  return { ownGrants: { id: charge.grantId === null ? [] : [charge.grantId] }, disputeId: charge.disputeId };
}

/**
 * The grant that stands for the payment now, or null when an operator, a refund or a dispute took it back.
 * After a won dispute that is the grant the dispute gave back, so a later refund or dispute takes that one.
 */
export async function standingGrant(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant | null> {
  const reinstated = payment.disputeId ? [{ idempotencyKey: reinstatementKey(payment.disputeId) }] : [];
  const grants = await PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [payment.ownGrants, ...reinstated] },
    order: [['id', 'DESC']],
    transaction,
  });
  for (const grant of grants) if (await stillStanding(grant, transaction)) return grant;
  return null;
}

/** The idempotency key of the grant a won dispute gives back. */
export function reinstatementKey(disputeId: string): string {
  return `dispute:${disputeId}:won`;
}

async function stillStanding(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { PremiumGrant, type Order, type SubscriptionCharge } from '../models';

/** Where the premium a payment bought can be: its own grant, and the one a won dispute of it gave back. */
export interface PaymentGrants {
  ownGrants: WhereOptions<PremiumGrant>;
  givenBackGrantId: number | null;
}

export function grantsOfOrder(order: Pick<Order, 'id' | 'givenBackGrantId'>): PaymentGrants {
  return { ownGrants: { orderId: order.id }, givenBackGrantId: order.givenBackGrantId };
}

export function grantsOfCharge(
  charge: Pick<SubscriptionCharge, 'grantId' | 'givenBackGrantId'>,
): PaymentGrants {
  return {
    ownGrants: { id: charge.grantId === null ? [] : [charge.grantId] },
    givenBackGrantId: charge.givenBackGrantId,
  };
}

/**
 * The grant that stands for the payment now, or null when an operator, a refund or a dispute took it back.
 * After a won dispute that is the grant the dispute gave back, so a later refund or dispute takes that one.
 */
export async function standingGrant(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant | null> {
  for (const grant of await grantsOf(payment, transaction)) {
    if (await stillStanding(grant, transaction)) return grant;
  }
  return null;
}

/**
 * The last revoke a chargeback made of the payment's premium: what a won dispute gives back (its days,
 * where it took them), whichever dispute took it.
 */
export async function takenByDispute(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant | null> {
  const grants = await grantsOf(payment, transaction);
  return PremiumGrant.findOne({
    where: {
      kind: 'revoke',
      revokesGrantId: grants.map((grant) => grant.id),
      actor: DISPUTE_ACTOR,
      idempotencyKey: { [Op.like]: 'dispute:%' },
    },
    order: [['id', 'DESC']],
    transaction,
  });
}

/** Who revokes and gives back premium for a chargeback. */
export const DISPUTE_ACTOR = 'razorpay-webhook';

/** The payment's grants, newest first. */
async function grantsOf(payment: PaymentGrants, transaction: Transaction): Promise<PremiumGrant[]> {
  const givenBack = payment.givenBackGrantId === null ? [] : [{ id: payment.givenBackGrantId }];
  return PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [payment.ownGrants, ...givenBack] },
    order: [['id', 'DESC']],
    transaction,
  });
}

async function stillStanding(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

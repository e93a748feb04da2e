import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { grantsMovedFrom } from './days-trail';
import { PremiumGrant, type Order, type SubscriptionCharge } from '../models';

/** Where the premium a payment bought can be: its own grant, and its restore grant (README.md). */
export interface PaymentGrants {
  ownGrants: WhereOptions<PremiumGrant>;
  restoreGrantId: number | null;
}

export function grantsOfOrder(order: Pick<Order, 'id' | 'restoreGrantId'>): PaymentGrants {
  return { ownGrants: { orderId: order.id }, restoreGrantId: order.restoreGrantId };
}

export function grantsOfCharge(
  charge: Pick<SubscriptionCharge, 'grantId' | 'restoreGrantId'>,
): PaymentGrants {
  return {
    ownGrants: { id: charge.grantId === null ? [] : [charge.grantId] },
    restoreGrantId: charge.restoreGrantId,
  };
}

/**
 * The grant the payment pays for now (README.md), or null when an operator, a refund or a dispute revoked
 * it. After a won dispute that is the grant that restored it, so a later refund or dispute revokes that one.
 */
export async function grantPaidFor(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant | null> {
  for (const grant of await grantsOf(payment, transaction)) {
    if (await notRevoked(grant, transaction)) return grant;
  }
  return null;
}

/**
 * The payment's grants, newest first: its own, its restore grant, and the grants that carry their days
 * on another guild since a transfer moved them (src/core/transfers).
 */
export async function grantsOf(payment: PaymentGrants, transaction: Transaction): Promise<PremiumGrant[]> {
  const restore = payment.restoreGrantId === null ? [] : [{ id: payment.restoreGrantId }];
  const grants = await PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [payment.ownGrants, ...restore] },
    transaction,
  });
  for (let moved = await movedTo(grants, transaction); moved.length > 0;) {
    grants.push(...moved);
    moved = await movedTo(moved, transaction);
  }
  return grants.sort((a, b) => b.id - a.id);
}

async function movedTo(grants: PremiumGrant[], transaction: Transaction): Promise<PremiumGrant[]> {
  const moved = await grantsMovedFrom(transaction, grants);
  if (moved.length === 0) return [];
  return PremiumGrant.findAll({ where: { id: moved.map((grant) => grant.id) }, transaction });
}

async function notRevoked(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

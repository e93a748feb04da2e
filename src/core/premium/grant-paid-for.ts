import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { selectRows } from '../db/database';
import { lockGuildForTransfers } from './days-trail';
import { PremiumGrant, type Order, type SubscriptionCharge } from '../models';
import { MOVED_TO_SQL } from './sql';

/** Where the premium a payment bought can be: its own grant, and its given-back grant (README.md). */
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
 * The payment's grants, newest first: its own, its given-back grant, and the grants that carry their days
 * on another guild since a transfer moved them (src/core/transfers).
 */
async function grantsOf(payment: PaymentGrants, transaction: Transaction): Promise<PremiumGrant[]> {
  const givenBack = payment.givenBackGrantId === null ? [] : [{ id: payment.givenBackGrantId }];
  const grants = await PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [payment.ownGrants, ...givenBack] },
    transaction,
  });
  for (let moved = await movedTo(grants, transaction); moved.length > 0;) {
    grants.push(...moved);
    moved = await movedTo(moved, transaction);
  }
  return grants.sort((a, b) => b.id - a.id);
}

/**
 * The grants carrying on the days of `grants` that transfers moved. Each guild is locked against transfers
 * first, so a transfer committing meanwhile is seen, not missed.
 */
async function movedTo(grants: PremiumGrant[], transaction: Transaction): Promise<PremiumGrant[]> {
  const guilds = [...new Set(grants.flatMap((grant) => (grant.guildId === null ? [] : [grant.guildId])))];
  if (guilds.length === 0) return [];
  for (const guildId of guilds.sort()) await lockGuildForTransfers(transaction, guildId);
  const moves = await selectRows<{ to_grant_id: number }>(transaction, MOVED_TO_SQL, [
    grants.map((grant) => grant.id),
  ]);
  if (moves.length === 0) return [];
  return PremiumGrant.findAll({ where: { id: moves.map((move) => move.to_grant_id) }, transaction });
}

async function notRevoked(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { selectRows } from '../db/database';
import { lockGuildForTransfers } from '../transfers/days-trail';
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
 * The chargeback whose taking of the payment's premium has not been given back: its revoke (key
 * `dispute:<id>`, days taken), or null. A dispute takes only while the premium stands, so there is at
 * most one.
 */
export async function outstandingTaking(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant | null> {
  const grants = await grantsOf(payment, transaction);
  const takings = await PremiumGrant.findAll({
    where: {
      kind: 'revoke',
      revokesGrantId: grants.map((grant) => grant.id),
      actor: DISPUTE_ACTOR,
      idempotencyKey: { [Op.like]: 'dispute:%' },
      days: { [Op.lt]: 0 },
    },
    order: [['id', 'DESC']],
    transaction,
  });
  for (const taking of takings) {
    const givenBack = await PremiumGrant.count({
      where: { idempotencyKey: `${taking.idempotencyKey}:won` },
      transaction,
    });
    if (givenBack === 0) return taking;
  }
  return null;
}

/** Who revokes and gives back premium for a chargeback. */
export const DISPUTE_ACTOR = 'razorpay-webhook';

/**
 * The payment's grants, newest first: its own, the one a won dispute gave back, and the grants that carry
 * their days on another guild since a transfer moved them (src/core/transfers).
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
  const moves = await selectRows<{ to_grant_id: number }>(
    transaction,
    'SELECT to_grant_id FROM premium_transfer_moves WHERE from_grant_id = ANY($1::bigint[])',
    [grants.map((grant) => grant.id)],
  );
  if (moves.length === 0) return [];
  return PremiumGrant.findAll({ where: { id: moves.map((move) => move.to_grant_id) }, transaction });
}

async function stillStanding(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { convertedGrantKey, unconvertedGrantKey } from './convert';
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
 * With `tier`, only a grant of that tier (an upgrade pays for its own tier's days, not those it gave back).
 */
export async function grantPaidFor(
  payment: PaymentGrants,
  transaction: Transaction,
  tier?: string,
): Promise<PremiumGrant | null> {
  const grants = await grantsPaidFor(payment, transaction);
  return grants.find((grant) => tier === undefined || grant.tier === tier) ?? null;
}

/**
 * Every grant carrying the payment's premium now, newest first: more than one when an upgrade that
 * converted its days was partly taken back (its rest higher, its share lower: docs/payments.md).
 */
export async function grantsPaidFor(
  payment: PaymentGrants,
  transaction: Transaction,
): Promise<PremiumGrant[]> {
  const live: PremiumGrant[] = [];
  for (const grant of await grantsOf(payment, transaction)) {
    if (await notRevoked(grant, transaction)) live.push(grant);
  }
  return live;
}

/**
 * The payment's grants, newest first: its own, its restore grant, and the grants that carry their days
 * since: on another guild after a transfer moved them (src/core/transfers), in another tier or the rest
 * left in their own after a revoke converted them (premium/convert.ts), what a partial refund left, and
 * what a won dispute gave back.
 */
export async function grantsOf(payment: PaymentGrants, transaction: Transaction): Promise<PremiumGrant[]> {
  const restore = payment.restoreGrantId === null ? [] : [{ id: payment.restoreGrantId }];
  const grants = await PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [payment.ownGrants, ...restore] },
    transaction,
  });
  for (let next = grants; next.length > 0;) {
    const seen = new Set(grants.map((grant) => grant.id));
    const found = [...(await movedTo(next, transaction)), ...(await convertedFrom(next, transaction))];
    next = [
      ...new Map(found.filter((grant) => !seen.has(grant.id)).map((grant) => [grant.id, grant])).values(),
    ];
    grants.push(...next);
  }
  return grants.sort((a, b) => b.id - a.id);
}

async function movedTo(grants: PremiumGrant[], transaction: Transaction): Promise<PremiumGrant[]> {
  const moved = await grantsMovedFrom(transaction, grants);
  if (moved.length === 0) return [];
  return PremiumGrant.findAll({ where: { id: moved.map((grant) => grant.id) }, transaction });
}

/** The keys of the grants a revoke under `key` gave its days on as (grantsOf follows them). */
const keysCarryingOn = (key: string): string[] => [
  convertedGrantKey(key),
  unconvertedGrantKey(key),
  `${key}:won`,
];

/** The revoke key a grant carrying days on was given under (keysCarryingOn reversed), or null. */
const revokeKeyCarriedOn = (grantKey: string): string | null =>
  /^(.*):(converted|rest|won)$/.exec(grantKey)?.[1] ?? null;

/**
 * `grantIds` and every grant whose days they carry on (grantsOf's conversions followed back): a purchase
 * naming any of these reaches `grantIds`.
 */
export async function grantsCarriedOnBy(transaction: Transaction, grantIds: number[]): Promise<number[]> {
  const all = new Set(grantIds);
  for (let next = grantIds; next.length > 0;) {
    const grants = await PremiumGrant.findAll({
      where: { id: next },
      attributes: ['idempotencyKey'],
      transaction,
    });
    const keys = grants.flatMap(({ idempotencyKey }) => revokeKeyCarriedOn(idempotencyKey) ?? []);
    const revokes = await PremiumGrant.findAll({
      where: { kind: 'revoke', idempotencyKey: keys },
      attributes: ['revokesGrantId'],
      transaction,
    });
    next = revokes.map((revoke) => Number(revoke.revokesGrantId)).filter((id) => !all.has(id));
    for (const id of next) all.add(id);
  }
  return [...all];
}

/**
 * The grants a revoke of `grants` gave their days on as (keysCarryingOn): a purchase whose days an
 * upgrade split names neither half, and reaches both, and what takes of them left, from the grant it names.
 */
async function convertedFrom(grants: PremiumGrant[], transaction: Transaction): Promise<PremiumGrant[]> {
  const revokes = await PremiumGrant.findAll({
    where: { kind: 'revoke', revokesGrantId: grants.map((grant) => grant.id) },
    attributes: ['idempotencyKey'],
    transaction,
  });
  if (revokes.length === 0) return [];
  const keys = revokes.flatMap(({ idempotencyKey }) => keysCarryingOn(idempotencyKey));
  return PremiumGrant.findAll({ where: { kind: 'grant', idempotencyKey: keys }, transaction });
}

async function notRevoked(grant: PremiumGrant, transaction: Transaction): Promise<boolean> {
  return (await PremiumGrant.count({ where: { revokesGrantId: grant.id }, transaction })) === 0;
}

import type { Transaction } from 'sequelize';
import { grantsOf, grantsPaidFor } from '../premium/grant-paid-for';
import { PremiumGrant } from '../models';
import type { RevokeOptions } from '../premium/revoke';
import type { LockedPayment } from './payment';

/** How a take reaches one of a payment's grants: under which key, and whether the guard may hold it. */
export interface GrantTake {
  grant: PremiumGrant;
  idempotencyKey: string;
  options: Pick<RevokeOptions, 'transaction' | 'released' | 'maxRevokesPerHour'>;
}

/**
 * The grants a take of the payment's premium reaches, newest first (grantsPaidFor): one, or both halves
 * of a partly taken-back upgrade of its days (the rest higher, the share converted back lower:
 * docs/payments.md). The first is taken under the take's own key, each other under `<key>:<grant id>`.
 * The revocation guard judges each (`guard: 'each'`: a take of grants whole, whose held revokes are
 * released as they were asked), or the first for all (`'first'`: a share, which only its own release
 * takes again as a whole; the others are never held, and nothing is taken after a hold).
 */
export async function grantTakes(
  transaction: Transaction,
  payment: LockedPayment,
  key: string,
  options: Pick<RevokeOptions, 'released' | 'maxRevokesPerHour'>,
  guard: 'each' | 'first',
): Promise<GrantTake[]> {
  return (await grantsPaidFor(payment, transaction)).map((grant, index) =>
    index === 0 || guard === 'each'
      ? {
          grant,
          idempotencyKey: index === 0 ? key : `${key}:${grant.id}`,
          options: { transaction, ...options },
        }
      : { grant, idempotencyKey: `${key}:${grant.id}`, options: { transaction, released: true } },
  );
}

/**
 * The revokes a take under `key` made of the payment's other grants (grantTakes: `<key>:<grant id>`),
 * found by their exact keys among the payment's grants, live or not, so that the unique index serves it.
 */
export async function otherGrantsRevokes(
  transaction: Transaction,
  payment: LockedPayment,
  key: string,
): Promise<PremiumGrant[]> {
  const keys = (await grantsOf(payment, transaction)).map((grant) => `${key}:${grant.id}`);
  return PremiumGrant.findAll({
    where: { kind: 'revoke', idempotencyKey: keys },
    order: [['id', 'ASC']],
    transaction,
  });
}

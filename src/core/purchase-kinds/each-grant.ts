import type { Transaction } from 'sequelize';
import { grantsPaidFor } from '../premium/grant-paid-for';
import type { PremiumGrant } from '../models';
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
 * docs/payments.md). The first is taken under the take's own key and the revocation guard's limit, as a
 * payment's one revoke; each other under `<key>:<grant id>`, never held, the guard having let the take
 * through as a whole (a take held waits whole for its release).
 */
export async function grantTakes(
  transaction: Transaction,
  payment: LockedPayment,
  key: string,
  options: Pick<RevokeOptions, 'released' | 'maxRevokesPerHour'>,
): Promise<GrantTake[]> {
  return (await grantsPaidFor(payment, transaction)).map((grant, index) =>
    index === 0
      ? { grant, idempotencyKey: key, options: { transaction, ...options } }
      : { grant, idempotencyKey: `${key}:${grant.id}`, options: { transaction, released: true } },
  );
}

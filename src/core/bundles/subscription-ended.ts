import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { grantCarryingDaysOf } from '../premium/days-trail';
import { cutGrace } from '../premium/revoke';
import { liveBindings, normalised, type LockedBundle } from './locked';
import type { BundleRevoke } from './money';
import { CUT_BUNDLE_END, LOCK_BUNDLE_OF_SUBSCRIPTION, RENEWAL_GRANTS } from './sql';

/**
 * A bundle subscription was cancelled: every bound guild runs to the end of the paid cycle (`until`) and
 * no further. The grace its last grant (the bind's, or the latest renewal's) runs past it is cut, at most
 * the grace the bundle itself holds past it, one cut per binding keyed `<key>:bundle-binding:<id>`; the
 * bundle then ends there too, so a later bind gets no grace either.
 */
export async function endBundleGrace(
  sequelize: Sequelize,
  transaction: Transaction,
  subscriptionId: number,
  until: Date,
  revoke: BundleRevoke,
): Promise<void> {
  const [found] = await selectRows<LockedBundle>(transaction, LOCK_BUNDLE_OF_SUBSCRIPTION, [subscriptionId]);
  if (!found) return;
  const bundle = normalised(found);
  const atMostMs = Math.max(0, bundle.endsAt.getTime() - until.getTime());
  for (const binding of await liveBindings(transaction, bundle.bundleId)) {
    if (binding.heldRevokeId !== null) continue;
    const renewals = await selectRows<{ id: number }>(transaction, RENEWAL_GRANTS, [
      binding.id,
      binding.guildId,
      binding.grantId,
    ]);
    const last = Math.max(binding.grantId, ...renewals.map(({ id }) => Number(id)));
    const carrying = await grantCarryingDaysOf(transaction, { id: last, guildId: binding.guildId });
    await cutGrace(
      sequelize,
      {
        ...revoke,
        target: { graceOf: carrying.id, until, atMostMs },
        idempotencyKey: `${revoke.idempotencyKey}:bundle-binding:${binding.id}`,
      },
      transaction,
    );
  }
  await execute(transaction, CUT_BUNDLE_END, [bundle.bundleId, until]);
}

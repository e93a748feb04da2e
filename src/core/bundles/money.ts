import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { grantPremium } from '../premium/grant';
import { grantCarryingDaysOf, type GrantPlace } from '../premium/days-trail';
import { revokePremium, type RevokeLimit } from '../premium/revoke';
import type { GrantSource, PremiumChange } from '../premium/types';
import { withdrawHeldRevokes } from '../revocation-guard/held-revokes';
import { recordBundleGrant } from './bundle-grants';
import { liveBindings, normalised, normalisedBinding, type LiveBinding, type LockedBundle } from './locked';
import {
  BINDING_GRANTS_LEFT,
  CLEAR_HELD,
  DISPUTE_TAKES,
  END_BUNDLE,
  HELD_DISPUTE_TAKES,
  HOLD_BINDING,
  LOCK_BUNDLE_OF_PAYMENT,
  LOCK_HELD_BINDING,
  MOVE_BINDING,
  REBIND,
  RENEWAL_GRANTS,
  REOPEN_BUNDLE,
  SET_RESTORE_GRANT,
  SHIFT_BUNDLE_END,
  UNBIND,
} from './sql';

/** Who takes a bundle's days, and the idempotency key each binding's revoke is keyed under. */
export interface BundleRevoke {
  source: GrantSource;
  actor: string;
  reason: string;
  idempotencyKey: string;
}

/**
 * What a refund or a dispute of the bundle's payment takes from every bound guild: all that is left (and
 * the bundle ends: `endNow` false keeps its end for a won dispute to give back), or `days` of it, the
 * payment's share of the bundle's days (docs/bundles.md).
 */
export type BundleTake = { days: 'all'; endNow: boolean } | { days: number };

/** The bundle a payment paid for, locked; null when it paid for none. */
export async function bundleOfPayment(
  transaction: Transaction,
  paymentId: string,
): Promise<LockedBundle | null> {
  const [found] = await selectRows<LockedBundle>(transaction, LOCK_BUNDLE_OF_PAYMENT, [paymentId]);
  return found ? normalised(found) : null;
}

const bindingKey = (key: string, bindingId: number) => `${key}:bundle-binding:${bindingId}`;

/**
 * Takes `take` from every bound guild of the locked bundle, one revoke (one event) each, and ends or
 * shortens the bundle so that a later bind gets what is left. A binding whose revoke the revocation guard
 * holds stays bound, marked held, until an operator releases it (releaseHeldBinding).
 */
export async function takeFromBundle(
  sequelize: Sequelize,
  transaction: Transaction,
  bundle: LockedBundle,
  take: BundleTake,
  revoke: BundleRevoke,
  limit: RevokeLimit = {},
): Promise<void> {
  const shareDays = take.days === 'all' ? null : take.days;
  for (const binding of await liveBindings(transaction, bundle.bundleId)) {
    if (binding.heldRevokeId !== null) continue;
    const key = bindingKey(revoke.idempotencyKey, binding.id);
    await takeBinding(
      sequelize,
      transaction,
      bundle,
      binding,
      { ...revoke, idempotencyKey: key },
      limit,
      shareDays,
    );
  }
  if (take.days === 'all') await execute(transaction, END_BUNDLE, [bundle.bundleId, take.endNow]);
  else await execute(transaction, SHIFT_BUNDLE_END, [bundle.bundleId, -take.days]);
}

/**
 * Takes back one binding's days: all that is left (the guild is unbound), or `shareDays` of them (what
 * is left after them goes back as a grant that carries the binding from then on, as a partial refund
 * does for one guild). Null when nothing was taken: held, or nothing left.
 */
export async function takeBinding(
  sequelize: Sequelize,
  transaction: Transaction,
  bundle: LockedBundle,
  binding: LiveBinding,
  revoke: BundleRevoke,
  limit: RevokeLimit = {},
  shareDays: number | null = null,
): Promise<PremiumChange | null> {
  const place = { id: binding.grantId, guildId: binding.guildId };
  const taken = await revokeIfAny(sequelize, transaction, place, revoke, limit);
  if (taken?.kind === 'held') {
    await execute(transaction, HOLD_BINDING, [binding.id, taken.heldId, shareDays]);
    return null;
  }
  return settleTaken(sequelize, transaction, bundle, binding, taken, { revoke, shareDays });
}

/**
 * Revokes what is left of one of a binding's grants, wherever it is now: a transfer made before bundle
 * days stayed with their binding moved them on as another grant, which is the one taken. Null when nothing
 * is left of it: an operator took it back, or ended the guild.
 */
export async function revokeIfAny(
  sequelize: Sequelize,
  transaction: Transaction,
  grant: GrantPlace,
  revoke: BundleRevoke,
  limit: RevokeLimit,
) {
  const carrying = await grantCarryingDaysOf(transaction, grant);
  return revokePremium(
    sequelize,
    { target: { grantId: carrying.id }, ...revoke },
    { transaction: transaction, ...limit },
  ).catch((error: unknown) => {
    if (error instanceof AppError && ['ALREADY_REVOKED', 'NO_PREMIUM'].includes(error.code)) return null;
    throw error;
  });
}

async function settleTaken(
  sequelize: Sequelize,
  transaction: Transaction,
  bundle: LockedBundle,
  binding: LiveBinding,
  taken: PremiumChange | null,
  { revoke, shareDays }: { revoke: BundleRevoke; shareDays: number | null },
): Promise<PremiumChange | null> {
  const renewed = taken ? await takeRenewals(sequelize, transaction, binding, revoke) : 0;
  const rest = taken && shareDays !== null ? Math.abs(taken.days) + renewed - shareDays : 0;
  if (taken && rest > 0) {
    const restore = await grantPremium(
      sequelize,
      {
        category: 'SERVER',
        providerId: bundle.buyerProviderId,
        // The binding's guild: days a transfer once moved off it are taken there and come back here.
        guildId: binding.guildId,
        plan: { planType: bundle.plan, months: null, durationDays: rest, tier: taken.tier },
        source: revoke.source,
        actor: revoke.actor,
        reason: `what is left of bundle ${bundle.bundleId} after ${revoke.reason}`,
        idempotencyKey: `${revoke.idempotencyKey}:rest`,
      },
      { transaction },
    );
    await execute(transaction, MOVE_BINDING, [binding.id, restore.grantId]);
    await recordBundleGrant(transaction, binding.id, restore.grantId);
    return taken;
  }
  // The rest of the binding's days no revoke took yet: what won disputes gave back, renewals a take found
  // nothing of the bind's grant to go with. Counted by the guard with the binding's own revoke.
  for (const { id } of await selectRows<{ id: number }>(transaction, BINDING_GRANTS_LEFT, [binding.id])) {
    const key = `${revoke.idempotencyKey}:grant:${id}`;
    const place = { id: Number(id), guildId: binding.guildId };
    await revokeIfAny(sequelize, transaction, place, { ...revoke, idempotencyKey: key }, {});
  }
  await execute(transaction, UNBIND, [binding.id, taken?.grantId ?? null, revoke.actor]);
  return taken;
}

/**
 * The days a bundle subscription's renewals granted the binding since its own grant, taken with it (the
 * guard already counted the binding's revoke): the binding's days are its grant's and theirs.
 */
async function takeRenewals(
  sequelize: Sequelize,
  transaction: Transaction,
  binding: LiveBinding,
  revoke: BundleRevoke,
): Promise<number> {
  const grants = await selectRows<{ id: number }>(transaction, RENEWAL_GRANTS, [
    binding.id,
    binding.guildId,
    binding.grantId,
  ]);
  let days = 0;
  for (const { id } of grants) {
    const key = `${revoke.idempotencyKey}:renewal:${id}`;
    const taken = await revokeIfAny(
      sequelize,
      transaction,
      { id: Number(id), guildId: binding.guildId },
      { ...revoke, idempotencyKey: key },
      {},
    );
    days += taken && taken.kind !== 'held' ? Math.abs(taken.days) : 0;
  }
  return days;
}

/**
 * An operator released the held revoke `heldRevokeId` (`premium revokes release`): the binding it held
 * is settled now as its take would have been then (unbound, or moved to what is left of a share), or
 * unbound when the release took nothing.
 */
export async function releaseHeldBinding(
  sequelize: Sequelize,
  transaction: Transaction,
  heldRevokeId: number,
  change: PremiumChange | null,
  revoke: BundleRevoke,
): Promise<void> {
  const [found] = await selectRows<LockedBundle & LiveBinding & { heldShareDays: number | null }>(
    transaction,
    LOCK_HELD_BINDING,
    [heldRevokeId],
  );
  if (!found) return;
  const binding = normalisedBinding(found);
  const bundle = normalised(found);
  // Refunded in full or charged back since it was held: a share's rest is no longer the buyer's.
  const shareDays = bundle.status === 'revoked' ? null : found.heldShareDays;
  await settleTaken(sequelize, transaction, bundle, binding, change, { revoke, shareDays });
}

/**
 * A won dispute of the bundle's payment gives back what it took (`take`, as its opening asked): each
 * binding's days, to the guild they were taken from, bound again if the dispute unbound it, and the
 * bundle's own days. Revokes of it the revocation guard still holds are withdrawn, their bindings no
 * longer held.
 */
export async function restoreBundleOf(
  sequelize: Sequelize,
  transaction: Transaction,
  bundle: LockedBundle,
  take: BundleTake,
  dispute: BundleRevoke,
): Promise<void> {
  const held = await selectRows<{ id: number; key: string }>(transaction, HELD_DISPUTE_TAKES, [
    bundle.bundleId,
    dispute.idempotencyKey,
  ]);
  await withdrawHeldRevokes(
    transaction,
    held.map((row) => row.key),
    dispute.actor,
    dispute.reason,
  );
  await execute(transaction, CLEAR_HELD, [bundle.bundleId, held.map((row) => row.id)]);
  const takes = await selectRows<{
    bindingId: number;
    guildId: string;
    revokeKey: string;
    tier: string;
    days: number;
    unbound: boolean;
  }>(transaction, DISPUTE_TAKES, [bundle.bundleId, dispute.idempotencyKey]);
  for (const taken of takes.filter((row) => row.days > 0)) {
    const restoring = await grantPremium(
      sequelize,
      {
        category: 'SERVER',
        providerId: bundle.buyerProviderId,
        guildId: taken.guildId,
        plan: { planType: bundle.plan, months: null, durationDays: taken.days, tier: taken.tier },
        source: dispute.source,
        actor: dispute.actor,
        reason: dispute.reason,
        idempotencyKey: `${taken.revokeKey}:won`,
      },
      { transaction },
    );
    await execute(transaction, taken.unbound ? REBIND : SET_RESTORE_GRANT, [
      taken.bindingId,
      restoring.grantId,
    ]);
    await recordBundleGrant(transaction, Number(taken.bindingId), restoring.grantId);
  }
  if (take.days === 'all') await execute(transaction, REOPEN_BUNDLE, [bundle.bundleId]);
  else await execute(transaction, SHIFT_BUNDLE_END, [bundle.bundleId, take.days]);
}

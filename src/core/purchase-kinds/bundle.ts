import {
  bindSlot,
  chargeBundle,
  createBundle,
  restoreBundleOf,
  takeFromBundle,
  type BundleTake,
  type LockedBundle,
} from '../bundles';
import { SLOTS_PER_PURCHASE } from '../plans';
import { takeRefundedBundleShare } from './bundle-refund-share';
import type { PurchaseKind } from './types';

/** A bundle: one purchase of several server slots, bound to guilds by its buyer (src/core/bundles). */
export function isBundle(purchase: { slots: number }): boolean {
  return purchase.slots > SLOTS_PER_PURCHASE;
}

/**
 * Several guilds' premium bought at once (docs/bundles.md): what the payment bought is the bundle's days
 * on every bound guild. A bundle order bought the bundle itself, so all of the payment ends it; a bundle
 * subscription's charge paid for one cycle's days, so it takes a share of them, never the bundle.
 */
export const bundle: PurchaseKind = {
  /**
   * An order's payment makes the bundle (once: a replay finds it made and binds nothing) and binds its
   * first slot to the guild the order named, if any; a subscription's first charge makes it the same way,
   * and each later one extends it and every bound guild (bundles/subscription-bundle.ts), once.
   */
  async grant(sequelize, payment) {
    const { origin, terms } = payment;
    const recorded = await payment.recordWithoutGrant();
    if (origin.source === 'charge') {
      if (!recorded) return { change: null };
      const { transaction, ...charge } = origin;
      const change = await chargeBundle(sequelize, transaction, {
        ...terms,
        ...charge,
        paymentId: payment.paymentId,
        actor: payment.actor,
      });
      return { change };
    }
    const made = await createBundle(origin.transaction, { id: origin.orderId, ...terms });
    if (!made.created || terms.guildId === null) return { change: null, bundle: made };
    const binding = await bindSlot(
      sequelize,
      {
        bundleId: made.bundleId,
        guildId: terms.guildId,
        by: { kind: 'operator', actor: payment.actor },
        reason: `payment ${payment.paymentId}: bundle ${made.bundleId}, first slot`,
      },
      origin.transaction,
    );
    return { change: binding.change, bundle: made };
  },

  async takeRefund({ sequelize, transaction, limit }, payment, take) {
    const locked = await payment.bundle();
    if (!locked) return;
    if (!take.full) {
      await takeRefundedBundleShare(sequelize, transaction, locked, payment, take.share, limit);
    } else if (boughtBy(locked)) {
      await takeFromBundle(sequelize, transaction, locked, { days: 'all', endNow: true }, take.revoke, limit);
    } else if (take.wasPaid && take.recorded) {
      const share = { ...take.revoke, recorded: take.recorded };
      await takeRefundedBundleShare(sequelize, transaction, locked, payment, share, limit);
    }
  },

  async takeDisputed({ sequelize, transaction, limit }, payment, { share, endNow, revoke }) {
    const locked = await payment.bundle();
    if (locked)
      await takeFromBundle(sequelize, transaction, locked, disputeTake(locked, share, endNow), revoke, limit);
    return null;
  },

  async restoreDisputed({ sequelize, transaction }, payment, { share, revoke }) {
    const locked = await payment.bundle();
    if (!locked) return false;
    await restoreBundleOf(sequelize, transaction, locked, disputeTake(locked, share, false), revoke);
    return true;
  },
};

/** Whether the bundle is what the payment bought (an order's), not a cycle of a subscription's. */
const boughtBy = (locked: LockedBundle) => locked.orderId !== null;

/**
 * A dispute of all of an order's payment takes all that is left of its bundle; of part of it, or of a
 * bundle subscription's charge (which paid for one cycle's days), that share of the bundle's days.
 */
function disputeTake(locked: LockedBundle, share: number, endNow: boolean): BundleTake {
  return share >= 1 && boughtBy(locked) ? { days: 'all', endNow } : { days: Math.ceil(locked.days * share) };
}

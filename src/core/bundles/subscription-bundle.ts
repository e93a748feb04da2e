import type { Sequelize, Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { grantPremium } from '../premium/grant';
import type { PremiumChange } from '../premium/types';
import { recordBundleGrant } from './bundle-grants';
import { bindSlot } from './bundles';
import { liveBindings, lockBundle, rows } from './locked';
import { BOUND_GUILDS_OF_SUBSCRIPTION, EXTEND_BUNDLE, INSERT_SUBSCRIPTION_BUNDLE } from './sql';

/** One captured charge of a bundle plan's subscription, as subscriptions/charges.ts applies it. */
export interface BundleCharge {
  /** subscriptions.id */
  subscriptionId: number;
  processorSubscriptionId: string;
  buyerUserId: number;
  planType: string;
  tier: string;
  slots: number;
  durationDays: number;
  /** The guild the subscription asked to bind first, at its first charge. */
  guildId: string | null;
  paymentId: string;
  /** The cycle's end and its grace: the bundle, and each guild bound only to it, run at least until then. */
  atLeastUntil: Date;
  actor: string;
}

/** The key of the grant a renewal charge gives one binding (RENEWAL_GRANTS finds them by it). */
export const renewalGrantKey = (bindingId: number, paymentId: string) =>
  `bundle-binding:${bindingId}:charge:${paymentId}`;

/**
 * A bundle subscription's charge, applied once per payment by its caller (under the subscription's
 * lock): the first makes the bundle and binds the guild the subscription named; each later one extends
 * the bundle by the plan's days and grants every bound guild those days (one grant, one event each;
 * a guild whose revoke the revocation guard holds is skipped). Returns the first binding's change, or
 * null.
 */
export async function chargeBundle(
  sequelize: Sequelize,
  transaction: Transaction,
  charge: BundleCharge,
): Promise<PremiumChange | null> {
  const [made] = await rows<{ bundleId: number; created: boolean }>(transaction, INSERT_SUBSCRIPTION_BUNDLE, [
    charge.subscriptionId,
    charge.buyerUserId,
    charge.planType,
    charge.tier,
    charge.slots,
    charge.durationDays,
    charge.atLeastUntil,
  ]);
  const bundleId = Number(made!.bundleId);
  if (made!.created) {
    if (charge.guildId === null) return null;
    const binding = await bindSlot(
      sequelize,
      {
        bundleId,
        guildId: charge.guildId,
        by: { kind: 'operator', actor: charge.actor },
        reason: `payment ${charge.paymentId}: bundle ${bundleId}, first slot`,
      },
      transaction,
    );
    return binding.change;
  }
  const bundle = await lockBundle(transaction, bundleId, { kind: 'operator', actor: charge.actor });
  const [extended] = await rows<{ endsAt: Date }>(transaction, EXTEND_BUNDLE, [
    bundleId,
    charge.atLeastUntil,
  ]);
  const endsAt = new Date(extended!.endsAt);
  let first: PremiumChange | null = null;
  for (const binding of await liveBindings(transaction, bundleId)) {
    if (binding.heldRevokeId !== null) continue;
    const change = await grantPremium(
      sequelize,
      {
        category: 'SERVER',
        providerId: bundle.buyerProviderId,
        guildId: binding.guildId,
        plan: {
          planType: charge.planType,
          months: null,
          durationDays: charge.durationDays,
          tier: charge.tier,
        },
        source: 'bundle',
        actor: charge.actor,
        reason: `subscription ${charge.processorSubscriptionId} payment ${charge.paymentId}: bundle ${bundleId} renewed`,
        idempotencyKey: renewalGrantKey(binding.id, charge.paymentId),
        atLeastUntil: endsAt,
        subscriptionId: charge.processorSubscriptionId,
      },
      { transaction },
    );
    await recordBundleGrant(transaction, binding.id, change.grantId);
    first ??= change;
  }
  return first;
}

/** The guilds bound to the bundle a subscription's charges made (none before its first charge). */
export async function boundGuildsOf(transaction: Transaction, subscriptionId: number): Promise<string[]> {
  const found = await selectRows<{ guildId: string }>(transaction, BOUND_GUILDS_OF_SUBSCRIPTION, [
    subscriptionId,
  ]);
  return found.map((row) => row.guildId);
}

import type { Sequelize } from 'sequelize';
import { selectRows, withTransaction } from '../db/database';
import { AppError } from '../errors';
import { grantPremium } from '../premium/grant';
import type { PremiumChange } from '../premium/types';
import { recordBundleGrant } from './bundle-grants';
import { takeBinding } from './money';
import { liveBindings, lockBundle, rows, type AnyTransaction, type BindingActor } from './locked';
import { BINDINGS_OF_GUILD, BUNDLES_OF_BUYER, INSERT_BINDING, INSERT_BUNDLE, MANAGES_GUILD } from './sql';

const DAY_MS = 86_400_000;

export interface BundleView {
  bundleId: number;
  plan: string;
  tier: string;
  slots: number;
  endsAt: Date;
  /** The Razorpay subscription whose charges make and renew it; null for a bundle bought once. */
  subscriptionId: string | null;
  /** `ended`: its days ran out (what it put on bound guilds runs on there, stacked); `revoked`: refunded or charged back. */
  status: 'active' | 'ended' | 'revoked';
  /** `held`: the revocation guard holds the revoke of its days (a refund's or a dispute's) for an operator. */
  guilds: { guildId: string; boundAt: string; state: 'bound' | 'held' }[];
}

export interface BundleOrder {
  id: number;
  buyerUserId: number;
  planType: string;
  tier: string;
  slots: number;
  durationDays: number;
}

export interface MadeBundle {
  bundleId: number;
  endsAt: Date;
  /** False when a payment before this one (a replay) made it. */
  created: boolean;
}

/**
 * The bundle a paid bundle order buys (once: a replayed payment finds it made), running from now for the
 * plan's days.
 */
export async function createBundle(transaction: AnyTransaction, order: BundleOrder): Promise<MadeBundle> {
  const [made] = await rows<MadeBundle>(transaction, INSERT_BUNDLE, [
    order.id,
    order.buyerUserId,
    order.planType,
    order.tier,
    order.slots,
    order.durationDays,
  ]);
  return { bundleId: Number(made!.bundleId), endsAt: new Date(made!.endsAt), created: made!.created };
}

/** The buyer's bundles with their bound guilds, newest first (`GET /api/premium/slots`). */
export async function listBundles(sequelize: Sequelize, providerId: string): Promise<BundleView[]> {
  const found = await selectRows<BundleView & { bundleId: string }>(sequelize, BUNDLES_OF_BUYER, [
    providerId,
  ]);
  return found.map((row) => ({
    ...row,
    bundleId: Number(row.bundleId),
    endsAt: new Date(row.endsAt),
    // json_agg writes PostgreSQL's text of a timestamp: every reader gets ISO 8601 with `Z`.
    guilds: row.guilds.map((guild) => ({ ...guild, boundAt: new Date(guild.boundAt).toISOString() })),
  }));
}

export interface Binding {
  bundleId: number;
  guildId: string;
  boundAt: Date;
  change: PremiumChange;
}

/**
 * Binds a free slot of the bundle to `guildId`: grants the guild the bundle's tier for the rest of the
 * bundle, in whole days (rounded to the nearest), stacked with whatever the guild has (source `bundle`).
 * Under the bundle row's lock, so concurrent binds never pass its slots. 403 NOT_GUILD_MANAGER for a buyer
 * who did not manage the guild at their last sign-in; 409 ALREADY_BOUND, NO_FREE_SLOT, BUNDLE_ENDED.
 */
export async function bindSlot(
  sequelize: Sequelize,
  request: { bundleId: number; guildId: string; by: BindingActor; reason?: string },
  transaction?: AnyTransaction,
): Promise<Binding> {
  if (transaction) return bindLocked(sequelize, request, transaction);
  return withTransaction(sequelize, undefined, (own) => bindLocked(sequelize, request, own));
}

async function bindLocked(
  sequelize: Sequelize,
  request: { bundleId: number; guildId: string; by: BindingActor; reason?: string },
  transaction: AnyTransaction,
): Promise<Binding> {
  const { guildId, by } = request;
  const bundle = await lockBundle(transaction, request.bundleId, by);
  if (by.kind === 'buyer') {
    const [managed] = await rows(transaction, MANAGES_GUILD, [by.providerId, guildId]);
    if (!managed) throw AppError.forbidden('NOT_GUILD_MANAGER', `you do not manage guild ${guildId}`);
  }
  const leftMs = bundle.endsAt.getTime() - Date.now();
  const days = Math.round(leftMs / DAY_MS);
  if (bundle.status !== 'active' || days < 1) {
    throw AppError.conflict('BUNDLE_ENDED', `bundle ${bundle.bundleId} has no days left to bind`);
  }
  const bound = await liveBindings(transaction, bundle.bundleId);
  if (bound.some((binding) => binding.guildId === guildId)) {
    throw AppError.conflict(
      'ALREADY_BOUND',
      `guild ${guildId} is already bound to bundle ${bundle.bundleId}`,
    );
  }
  if (bound.length >= bundle.slots) {
    throw AppError.conflict(
      'NO_FREE_SLOT',
      `bundle ${bundle.bundleId} has all its ${bundle.slots} slots bound; unbind a guild first`,
    );
  }
  const [earlier] = await rows<{ count: number }>(transaction, BINDINGS_OF_GUILD, [bundle.bundleId, guildId]);
  const actor = by.kind === 'buyer' ? `user:${by.providerId}` : by.actor;
  const change = await grantPremium(
    sequelize,
    {
      category: 'SERVER',
      providerId: bundle.buyerProviderId,
      guildId,
      plan: { planType: bundle.plan, months: null, durationDays: days, tier: bundle.tier },
      source: 'bundle',
      actor,
      reason: request.reason ?? `bundle ${bundle.bundleId} bound`,
      idempotencyKey: `bundle:${bundle.bundleId}:bind:${guildId}:${earlier?.count ?? 0}`,
      // Rounding aside, every guild bound only to the bundle ends with it.
      atLeastUntil: bundle.endsAt,
    },
    { transaction },
  );
  const [binding] = await rows<{ id: number; boundAt: Date }>(transaction, INSERT_BINDING, [
    bundle.bundleId,
    guildId,
    change.grantId,
  ]);
  await recordBundleGrant(transaction, Number(binding!.id), change.grantId);
  return { bundleId: bundle.bundleId, guildId, boundAt: new Date(binding!.boundAt), change };
}

/**
 * Unbinds `guildId` from the bundle: takes back what is left of the binding's grant (never the guild's
 * own days nor another buyer's) and frees the slot. 404 NOT_BOUND when the guild is not bound to it.
 */
export async function unbindSlot(
  sequelize: Sequelize,
  request: { bundleId: number; guildId: string; by: BindingActor; reason?: string },
): Promise<{ bundleId: number; guildId: string; change: PremiumChange | null }> {
  return withTransaction(sequelize, undefined, async (transaction) => {
    const bundle = await lockBundle(transaction, request.bundleId, request.by);
    const binding = (await liveBindings(transaction, bundle.bundleId)).find(
      (bound) => bound.guildId === request.guildId,
    );
    if (!binding) {
      throw AppError.notFound(
        'NOT_BOUND',
        `guild ${request.guildId} is not bound to bundle ${bundle.bundleId}`,
      );
    }
    const actor = request.by.kind === 'buyer' ? `user:${request.by.providerId}` : request.by.actor;
    const change = await takeBinding(sequelize, transaction, bundle, binding, {
      source: 'bundle',
      actor,
      reason: request.reason ?? `bundle ${bundle.bundleId} unbound`,
      idempotencyKey: `bundle:${bundle.bundleId}:unbind:${binding.id}`,
    });
    return { bundleId: bundle.bundleId, guildId: request.guildId, change };
  });
}

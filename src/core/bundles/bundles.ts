import type { Sequelize, Transaction } from 'sequelize';
import { selectRows, withTransaction } from '../db/database';
import { PlainTransaction } from '../db/plain-transaction';
import { AppError } from '../errors';
import { grantPremium } from '../premium/grant';
import { revokePremium, type RevokeLimit } from '../premium/revoke';
import type { GrantSource, PremiumChange } from '../premium/types';
import {
  BINDINGS_OF_GUILD,
  BUNDLES_OF_BUYER,
  END_BUNDLE,
  INSERT_BINDING,
  INSERT_BUNDLE,
  LIVE_BINDINGS,
  LOCK_BUNDLE,
  LOCK_BUNDLE_OF_ORDER,
  MANAGES_GUILD,
  UNBIND,
} from './sql';

const DAY_MS = 86_400_000;

/** A transaction of either kind: the paid-and-grant one is plain, the rest are Sequelize's. */
export type AnyTransaction = Transaction | PlainTransaction;

function rows<T extends object>(transaction: AnyTransaction, text: string, values: unknown[]): Promise<T[]> {
  if (transaction instanceof PlainTransaction) return transaction.rows<T>({ name: '', text, values });
  return selectRows<T>(transaction, text, values);
}

export interface LockedBundle {
  bundleId: number;
  orderId: number | null;
  buyerUserId: number;
  buyerProviderId: string;
  plan: string;
  tier: string;
  slots: number;
  days: number;
  endsAt: Date;
  status: 'active' | 'revoked';
}

interface LiveBinding {
  id: number;
  guildId: string;
  grantId: number;
  boundAt: Date;
}

export interface BundleView {
  bundleId: number;
  plan: string;
  tier: string;
  slots: number;
  endsAt: Date;
  status: 'active' | 'revoked';
  guilds: { guildId: string; boundAt: string }[];
}

/** Who binds or unbinds: the buyer (who must manage the guild to bind it) or an operator. */
export type BindingActor = { kind: 'buyer'; providerId: string } | { kind: 'operator'; actor: string };

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
  return found.map((row) => ({ ...row, bundleId: Number(row.bundleId), endsAt: new Date(row.endsAt) }));
}

async function lockBundle(transaction: AnyTransaction, bundleId: number, by: BindingActor) {
  const [bundle] = await rows<LockedBundle>(transaction, LOCK_BUNDLE, [bundleId]);
  // Another buyer's bundle is answered as none, so bundle ids reveal nothing.
  if (!bundle || (by.kind === 'buyer' && bundle.buyerProviderId !== by.providerId)) {
    throw AppError.notFound('BUNDLE_NOT_FOUND', `no bundle ${bundleId}`);
  }
  return normalised(bundle);
}

function normalised(bundle: LockedBundle): LockedBundle {
  return {
    ...bundle,
    bundleId: Number(bundle.bundleId),
    orderId: bundle.orderId === null ? null : Number(bundle.orderId),
    buyerUserId: Number(bundle.buyerUserId),
    endsAt: new Date(bundle.endsAt),
  };
}

async function liveBindings(transaction: AnyTransaction, bundleId: number): Promise<LiveBinding[]> {
  const found = await rows<LiveBinding>(transaction, LIVE_BINDINGS, [bundleId]);
  return found.map((row) => ({ ...row, id: Number(row.id), grantId: Number(row.grantId) }));
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
    },
    { transaction },
  );
  const [binding] = await rows<{ boundAt: Date }>(transaction, INSERT_BINDING, [
    bundle.bundleId,
    guildId,
    change.grantId,
  ]);
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
    const change = await takeBinding(sequelize, transaction, binding, {
      source: 'bundle',
      actor,
      reason: request.reason ?? `bundle ${bundle.bundleId} unbound`,
      idempotencyKey: `bundle:${bundle.bundleId}:unbind:${binding.id}`,
    });
    return { bundleId: bundle.bundleId, guildId: request.guildId, change };
  });
}

/** Takes back what is left of one binding's grant and marks it unbound. */
async function takeBinding(
  sequelize: Sequelize,
  transaction: Transaction,
  binding: LiveBinding,
  revoke: { source: GrantSource; actor: string; reason: string; idempotencyKey: string },
  limit: RevokeLimit & { released?: boolean } = {},
): Promise<PremiumChange | null> {
  const taken = await revokePremium(
    sequelize,
    { target: { grantId: binding.grantId }, ...revoke },
    { transaction, ...limit },
  ).catch((error: unknown) => {
    // An operator already took it back, or ended the guild: nothing left of it to take.
    if (error instanceof AppError && ['ALREADY_REVOKED', 'NO_PREMIUM'].includes(error.code)) return null;
    throw error;
  });
  const change = taken && 'grantId' in taken ? taken : null;
  await selectRows(transaction, `${UNBIND} RETURNING id`, [
    binding.id,
    change?.grantId ?? null,
    revoke.actor,
  ]);
  return change;
}

/**
 * A full refund or a lost (or opened) dispute of a bundle order's payment: takes back what is left of the
 * bundle from every bound guild (one revoke, so one event, each) and ends the bundle. False when the order
 * bought no bundle, so the caller revokes the order's own grant as before.
 */
export async function takeBackBundleOf(
  sequelize: Sequelize,
  transaction: Transaction,
  orderId: number,
  revoke: { source: GrantSource; actor: string; reason: string; idempotencyKey: string },
  limit: RevokeLimit = {},
): Promise<boolean> {
  const [found] = await selectRows<LockedBundle>(transaction, LOCK_BUNDLE_OF_ORDER, [orderId]);
  if (!found) return false;
  const bundle = normalised(found);
  for (const binding of await liveBindings(transaction, bundle.bundleId)) {
    await takeBinding(
      sequelize,
      transaction,
      binding,
      { ...revoke, idempotencyKey: `${revoke.idempotencyKey}:bundle-binding:${binding.id}` },
      limit,
    );
  }
  await selectRows(transaction, `${END_BUNDLE} RETURNING id`, [bundle.bundleId]);
  return true;
}

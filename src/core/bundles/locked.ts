import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { PlainTransaction } from '../db/plain-transaction';
import { AppError } from '../errors';
import { LIVE_BINDINGS, LOCK_BUNDLE } from './sql';

/** A transaction of either kind: the paid-and-grant one is plain, the rest are Sequelize's. */
export type AnyTransaction = Transaction | PlainTransaction;

export function rows<T extends object>(
  transaction: AnyTransaction,
  text: string,
  values: unknown[],
): Promise<T[]> {
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

export interface LiveBinding {
  id: number;
  guildId: string;
  grantId: number;
  boundAt: Date;
  /** Set while the revocation guard holds the revoke of its days: still bound until it is released. */
  heldRevokeId: number | null;
}

/** Who binds or unbinds: the buyer (who must manage the guild to bind it) or an operator. */
export type BindingActor = { kind: 'buyer'; providerId: string } | { kind: 'operator'; actor: string };

export async function lockBundle(transaction: AnyTransaction, bundleId: number, by: BindingActor) {
  const [bundle] = await rows<LockedBundle>(transaction, LOCK_BUNDLE, [bundleId]);
  // Another buyer's bundle is answered as none, so bundle ids reveal nothing.
  if (!bundle || (by.kind === 'buyer' && bundle.buyerProviderId !== by.providerId)) {
    throw AppError.notFound('BUNDLE_NOT_FOUND', `no bundle ${bundleId}`);
  }
  return normalised(bundle);
}

export function normalised(bundle: LockedBundle): LockedBundle {
  return {
    ...bundle,
    bundleId: Number(bundle.bundleId),
    orderId: bundle.orderId === null ? null : Number(bundle.orderId),
    buyerUserId: Number(bundle.buyerUserId),
    endsAt: new Date(bundle.endsAt),
  };
}

export async function liveBindings(transaction: AnyTransaction, bundleId: number): Promise<LiveBinding[]> {
  const found = await rows<LiveBinding>(transaction, LIVE_BINDINGS, [bundleId]);
  return found.map(normalisedBinding);
}

export function normalisedBinding<T extends LiveBinding>(row: T): T {
  const id = (value: number | null) => (value === null ? null : Number(value));
  return {
    ...row,
    id: Number(row.id),
    grantId: Number(row.grantId),
    heldRevokeId: id(row.heldRevokeId),
  };
}

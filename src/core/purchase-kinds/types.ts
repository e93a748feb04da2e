import type { Sequelize, Transaction } from 'sequelize';
import type { LockedPayment } from '../payments/locked-payment';
import type { RecordedRefund } from './refund-records';
import type { RevokeLimit } from '../premium/revoke';
import type { GrantSource } from '../premium/types';

/** What a kind changes premium in: the payment's source is locked by the caller. */
export interface KindContext {
  sequelize: Sequelize;
  transaction: Transaction;
  limit: RevokeLimit;
}

/** Who takes premium back and why, under one idempotency key per payment and cause. */
export interface KindRevoke {
  source: GrantSource;
  actor: string;
  reason: string;
  idempotencyKey: string;
}

/** A processed refund of a payment, recorded in `payment_refunds` (its days counted there), and who took it. */
export interface RefundedShare extends Omit<KindRevoke, 'idempotencyKey'> {
  recorded: RecordedRefund;
}

/** A dispute's share of a payment: of all of it (1) or a part; `endNow` once the money is gone. */
export interface DisputeTake {
  share: number;
  endNow: boolean;
  revoke: KindRevoke;
}

/** A dispute's revoke that no grant restored yet: the dispute, and what its revoke took. */
export interface UnrestoredRevoke {
  disputeId: string;
  /** The revoke's ledger row. */
  ledgerId: number;
  /** Negative: the days taken. */
  days: number;
  guildId: string | null;
  idempotencyKey: string;
  /** The tier whose days it took. */
  tier: string;
}

/**
 * What the dispute rules keep of a dispute's revokes (src/core/disputes), for a kind to give back what
 * one took: passed in, so a kind knows no dispute's tables.
 */
export interface DisputeTrail {
  /** The payment's dispute revokes the revocation guard still holds are never to be applied now. */
  withdrawHeldRevokes(): Promise<void>;
  /** The dispute revoke of the payment that took days and no grant restored yet, or null. */
  unrestoredRevoke(): Promise<UnrestoredRevoke | null>;
  recordRestore(disputeId: string, ledgerId: number): Promise<void>;
}

/**
 * How one kind of purchase (docs/payments.md) takes back and gives back what a payment bought. The
 * refund and dispute rules decide when and how much; the kind decides from what.
 */
export interface PurchaseKind {
  /**
   * A refund's take: a part (the refunded total's share of the purchase's days, less what its refunds
   * took) or, with `full`, all that is left. `wasPaid`: the payment's premium ran until now.
   */
  takeRefund(
    context: KindContext,
    payment: LockedPayment,
    take:
      | { full: false; share: RefundedShare }
      | { full: true; recorded: RecordedRefund | null; revoke: KindRevoke; wasPaid: boolean },
  ): Promise<void>;
  /** A dispute's take of `share` of the payment; the ledger row of its revoke when it wrote one. */
  takeDisputed(context: KindContext, payment: LockedPayment, take: DisputeTake): Promise<number | null>;
  /**
   * Gives back what the payment's disputes took, once a dispute is won; false when nothing had been
   * taken (the dispute came before the payment was applied).
   */
  restoreDisputed(
    context: KindContext,
    payment: LockedPayment,
    won: { share: number; revoke: KindRevoke; trail: DisputeTrail },
  ): Promise<boolean>;
}

import type { Sequelize, Transaction } from 'sequelize';
import type { MadeBundle } from '../bundles';
import type { PlainTransaction } from '../db/plain-transaction';
import type { GiftCode } from './gift-code';
import type { LockedPayment } from './payment';
import type { RecordedRefund } from './refund-records';
import type { RevokeLimit } from '../premium/revoke';
import type { GrantSource, PremiumChange } from '../premium/types';

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
  /** The keys of the payment's disputes' revokes, each dispute's whichever it is. */
  revokeKeys(): Promise<string[]>;
  /** The dispute revoke of the payment that took days and no grant restored yet, or null. */
  unrestoredRevoke(): Promise<UnrestoredRevoke | null>;
  recordRestore(disputeId: string, ledgerId: number): Promise<void>;
}

/** What a payment bought, as its source describes it to its kind's grant. */
export interface PurchaseTerms {
  buyerUserId: number;
  buyerProviderId: string;
  category: 'USER' | 'SERVER';
  /** The guild the purchase is for; a bundle's first slot's, or null to bind all later. */
  guildId: string | null;
  planType: string;
  /** Custom's months; null for every other plan and for a charge. */
  months: number | null;
  tier: string;
  slots: number;
  durationDays: number;
}

/** An order's payment being applied (payments/apply-payment.ts), in the order's paid-and-grant transaction. */
export interface OrderBeingPaid {
  source: 'order';
  orderId: number;
  processorOrderId: string;
  transaction: PlainTransaction;
  /** A payment applied before: this one replays it. */
  paidBefore: boolean;
  upgradeFromTier: string | null;
  /** Marks the order paid and refused with `code`, granting nothing: its caller refunds it in full. */
  refuse(code: string): Promise<void>;
  /** A Sequelize transaction on the order's lock, for a grant that revokes through the models. */
  models(): Transaction;
  /**
   * The grants an upgrade may convert: a subscription switch's order converts its cycle's
   * (docs/subscriptions.md); undefined for all the buyer's own days of the lower tier.
   */
  convertible(models: Transaction): Promise<number[] | undefined>;
}

/** A subscription's charge being applied (subscriptions/charges.ts), under the subscription's lock. */
export interface ChargeBeingPaid {
  source: 'charge';
  subscriptionId: number;
  processorSubscriptionId: string;
  transaction: Transaction;
  /** The cycle's end and its grace: what the charge pays for runs at least until then. */
  atLeastUntil: Date;
}

/**
 * A payment being applied, as its source records it: a kind's grant calls these, so neither source asks
 * what the payment bought.
 */
export interface PaymentToGrant {
  paymentId: string;
  actor: string;
  terms: PurchaseTerms;
  origin: OrderBeingPaid | ChargeBeingPaid;
  /**
   * Grants the purchase's own days to its target and records the payment with that grant, once: the same
   * payment again returns the first grant. `converts`: the grant turns days the buyer held into its tier.
   */
  grantDays(options?: { converts: boolean }): Promise<PremiumChange>;
  /** Records the payment with no grant of its own; false when it had been recorded before. */
  recordWithoutGrant(): Promise<boolean>;
}

/** What a payment's grant did: the change the bot hears of, a bundle it made, or why it was refused. */
export interface GrantedPurchase {
  change: PremiumChange | null;
  bundle?: MadeBundle;
  /** Refused, granting nothing (UPGRADE_DAYS_CHANGED): the caller refunds it in full. */
  refused?: string;
  /** The gift code the payment bought (docs/codes.md). */
  giftCode?: GiftCode;
}

/**
 * How one kind of purchase (docs/payments.md) grants, takes back and gives back what a payment bought.
 * The payment's source says how the payment is recorded; the refund and dispute rules decide when and
 * how much; the kind decides what is given and from what it is taken.
 */
export interface PurchaseKind {
  /** Gives what the payment bought, in its source's transaction, once however often it is applied. */
  grant(sequelize: Sequelize, payment: PaymentToGrant): Promise<GrantedPurchase>;
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

import type { LockedBundle } from '../bundles';
import type { BuyerMessage } from '../buyer-messages/types';
import type { DisputeStatus, OrderStatus } from '../models';
import type { GrantRequest } from '../premium/grant';
import type { PaymentGrants } from '../premium/grant-paid-for';
import type { RevokeRequest } from '../premium/revoke';
import type { GrantSource } from '../premium/types';
import type { NoticeBuyer } from '../seller-notices';

/** Every purchase kind's name, as `payments.kind` records it. */
export type PurchaseKindName = 'single' | 'bundle' | 'upgrade' | 'gift';

/** The row a payment was recorded on: its order's, or its subscription charge's. */
export type PaymentOwner = { orderId: number } | { chargeId: number };

/**
 * A payment (docs/payments.md) as refunds, disputes, their releases and its kind see it, read under its
 * source's lock (an order's row, or its subscription's for a charge), so that what changes it runs in
 * turn. Where the two sources differ is said once, by each (payments/sources/order.ts, charge.ts).
 */
export interface LockedPayment extends PaymentGrants {
  /** Where the money was recorded (`payments.source`). */
  source: 'order' | 'charge';
  /**
   * What it bought (`payments.kind`, src/core/purchase-kinds): one target's premium, a bundle, or the
   * upgrade of days held, or a gift code. A payment not recorded yet has bought nothing yet: `single`.
   */
  kind: PurchaseKindName;
  /** For reasons and messages: `order <id>`, `subscription <id> payment <id>`. */
  name: string;
  /** Who paid, as the seller's notice names them. */
  buyer: NoticeBuyer;
  /** Who paid, as the buyer's messages reach them. */
  to: { providerId: string; username: string };
  /** Razorpay's payment (`pay_…`). */
  paymentId: string;
  /** What was paid, in paise: a dispute or refund of part of it takes that share of the premium. */
  amountPaise: number;
  /** Whether its premium runs (`paid`), a dispute revoked it (`disputed`) or the money is gone. */
  standing: OrderStatus;
  owner: PaymentOwner;
  /** What its revoke and its restoring grant are recorded as. */
  premium: Pick<RevokeRequest, 'source' | 'subscriptionId'>;
  /** What a restoring grant is recorded as (its days and guild are what the revoke took). */
  plan: Pick<GrantRequest, 'category' | 'providerId' | 'guildId' | 'plan'>;
  /** What the buyer's messages name it as. */
  messagePlan: BuyerMessage['plan'];
  /** What the buyer's messages name the purchase by (the order, or the subscription). */
  reference: string;
  /** The idempotency key of the revoke a full refund makes. */
  refundRevokeKey: string;
  /** Who the ledger says a refund's revoke is by: an operator's refund is theirs, never held. */
  refundSource(requestedByOperator: boolean, seenBy: 'webhook' | 'reconcile'): GrantSource;
  setStanding(standing: 'paid' | 'disputed' | 'refunded'): Promise<void>;
  /** Names the dispute on the payment's row, as its latest. */
  recordDispute(disputeId: string, status: DisputeStatus): Promise<void>;
  /** Keeps `grantId` as the grant that carries the payment's premium from now on. */
  recordRestoreGrant(grantId: number): Promise<void>;
  /**
   * Applies the payment as paid when it was never granted (its dispute came before it): a won dispute
   * then gives what the payment bought, as the payment delivered first would have had.
   */
  applyIfNeverGranted?(): Promise<void>;
  /** The bundle the payment paid for, locked (docs/bundles.md); null for one target's premium. */
  bundle(): Promise<LockedBundle | null>;
}

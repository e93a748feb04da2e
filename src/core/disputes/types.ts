import type { DisputeStatus, OrderStatus } from '../models';
import type { GrantRequest } from '../premium/grant';
import type { RevokeRequest } from '../premium/revoke';
import type { PaymentGrants } from '../premium/grant-paid-for';
import type { NoticeBuyer } from '../seller-notices';
import type { DisputeDetails, DisputeOwner } from './history';

/** Where a chargeback is, from Razorpay's `payment.dispute.<stage>` webhooks. */
export type DisputeStage = 'created' | 'won' | 'lost' | 'closed' | 'under_review' | 'action_required';

export interface PaymentDispute {
  disputeId: string;
  paymentId: string;
  /** From the event's payment entity; when absent, the order is found by its payment. */
  processorOrderId: string | null;
  stage: DisputeStage;
  /** Paise disputed; not said is the whole payment. */
  amountPaise?: number | null;
  details?: Partial<Omit<DisputeDetails, 'amountPaise'>>;
}

export type DisputeOutcome = { result: 'applied' } | { result: 'ignored'; reason: string };

/**
 * A payment a dispute can be about, as the stage rules see it: an order's (order-dispute.ts), or a
 * subscription charge's (charge-dispute.ts). Read once, under its row's lock.
 */
export interface DisputedPayment extends PaymentGrants {
  /** For reasons and messages: `order <id>`, `subscription <id> payment <id>`. */
  name: string;
  /** Who paid, as the seller's notice names them. */
  buyer: NoticeBuyer;
  /** Razorpay's payment (`pay_…`) disputed or refunded. */
  paymentId: string;
  /** What was paid, in paise: a dispute of part of it revokes that share of the premium. */
  amountPaise: number;
  /** Whether its premium runs (`paid`), a dispute revoked it (`disputed`) or the money is gone. */
  standing: OrderStatus;
  owner: DisputeOwner;
  /** What its revoke and its restoring grant are recorded as. */
  premium: Pick<RevokeRequest, 'source' | 'subscriptionId'>;
  /** What a won dispute's restoring grant is recorded as (its days and guild are what the revoke took). */
  plan: Pick<GrantRequest, 'category' | 'providerId' | 'guildId' | 'plan'>;
  setStanding(standing: 'paid' | 'disputed' | 'refunded'): Promise<void>;
  /** Names the dispute on the payment's row, as its latest. */
  recordDispute(disputeId: string, status: DisputeStatus): Promise<void>;
  /** Keeps `grantId` as the payment's restore grant (README.md). */
  recordRestoreGrant(grantId: number): Promise<void>;
  /**
   * Applies the payment as paid when it was never granted (its dispute came before it): a won dispute
   * then gives what the payment bought, as the payment delivered first would have had.
   */
  applyIfNeverGranted?(): Promise<void>;
}

import type { DisputeDetails } from './history';

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

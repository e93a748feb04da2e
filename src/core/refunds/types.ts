export interface RefundRequest {
  /** Name the payment by its order (`order_…`) or by the payment (`pay_…`, also a subscription charge's). */
  orderId?: string;
  paymentId?: string;
  /** In paise; default: what is left unrefunded of the payment. */
  amountPaise?: number;
  reason: string;
  /** Who asks, for the ledger: an operator's name or `console:<providerId>`. */
  actor: string;
  /** The same key twice refunds once: the second call answers the first one's refund. */
  idempotencyKey?: string;
}

export type RefundStatus = 'pending' | 'processed' | 'failed';

export interface RefundResult {
  /** Razorpay's refund id (`rfnd_…`). */
  refundId: string;
  paymentId: string;
  orderId: string | null;
  subscriptionId: string | null;
  /** This refund, in paise. */
  amountPaise: number;
  /** Everything refunded of the payment so far, this refund included, in paise. */
  refundedTotalPaise: number;
  paymentAmountPaise: number;
  status: RefundStatus;
  /** Days of premium taken back by this refund so far (0 while Razorpay has not processed it). */
  daysTaken: number;
}

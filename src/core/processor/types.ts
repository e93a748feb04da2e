/**
 * The Razorpay API entities as the service reads them (a subset of their fields). The local sandbox
 * produces exactly these shapes, so the two cannot drift apart.
 */

/** Razorpay answers `[]` rather than `{}` for empty notes. */
export type RazorpayNotes = Record<string, string | number> | [];

export interface RazorpayOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: string | null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: RazorpayNotes;
  created_at: number;
}

/** The card a card payment was made with (`card_id` names it too). */
export interface RazorpayCard {
  id: string;
  entity: 'card';
  name: string;
  last4: string;
  network: string;
  type: 'credit' | 'debit' | 'prepaid';
  issuer: string | null;
  international: boolean;
  emi: boolean;
  sub_type: 'consumer' | 'business';
}

/** How a UPI payment was made. */
export interface RazorpayUpi {
  payer_account_type: 'bank_account' | 'credit_card' | 'wallet';
  vpa: string;
  flow: 'collect' | 'intent' | 'in_app';
}

export interface RazorpayPayment {
  id: string;
  entity: 'payment';
  amount: number;
  /** The amount in INR paise (the same as `amount` for INR payments). */
  base_amount: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
  order_id: string | null;
  invoice_id: string | null;
  international: boolean;
  method: string;
  amount_refunded: number;
  refund_status: 'partial' | 'full' | null;
  captured: boolean;
  description: string | null;
  card_id: string | null;
  bank: string | null;
  wallet: string | null;
  vpa: string | null;
  /** Only when fetched with `expand[]=card` (and in webhooks): otherwise `card_id` alone names it. */
  card?: RazorpayCard | null;
  upi: RazorpayUpi | null;
  /** The mandate's token (recurring payments), and the customer it belongs to. */
  token_id?: string | null;
  customer_id?: string | null;
  email: string;
  contact: string;
  notes: RazorpayNotes;
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  acquirer_data: Record<string, string | null>;
  created_at: number;
}

/** A customer's token (`GET /v1/customers/:id/tokens/:token_id`): an e-mandate's names the bank account. */
export interface RazorpayToken {
  id: string;
  entity: 'token';
  method: string;
  bank: string | null;
  recurring: boolean;
  bank_details?: {
    beneficiary_name: string | null;
    account_number: string | null;
    ifsc: string | null;
    account_type: string | null;
  } | null;
  created_at: number;
}

export interface RazorpayRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  notes: RazorpayNotes;
  receipt: string | null;
  acquirer_data: Record<string, string | null>;
  created_at: number;
  batch_id: string | null;
  status: 'pending' | 'processed' | 'failed';
  speed_processed: 'normal' | 'instant';
  speed_requested: 'normal' | 'optimum';
}

/** The kinds of message the buyer gets in this slice; `receipt` cannot be turned off. */
export const MESSAGE_KINDS = ['receipt', 'refund'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Kinds a buyer cannot turn off (the issue: receipts and pre-debit notices stay on). */
export const REQUIRED_KINDS: readonly MessageKind[] = ['receipt'];

/**
 * One message to a buyer, as its job's payload keeps it: facts of their own purchase only, never a
 * token, a payment's secret or another buyer's name (operators read payloads).
 */
export interface BuyerMessage {
  kind: MessageKind;
  /** The buyer's Discord id: where the DM goes. */
  to: string;
  /** Their Discord name, for `{buyer}`. */
  buyer: string;
  plan: { tier: string; planType: string; durationDays: number };
  /** In paise: what was paid, or refunded. */
  amountPaise: number;
  /** Our order's (`order_…`) or subscription's (`sub_…`) id: the store lists its invoice by it. */
  reference: string;
}

/** The kinds of message the buyer gets; those of REQUIRED_KINDS cannot be turned off. */
export const MESSAGE_KINDS = [
  'receipt',
  'refund',
  'renewal_upcoming',
  'charge_failed',
  'trial_ending',
  'expiring',
  'lapsed',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Kinds a buyer cannot turn off (the issue: receipts and pre-debit notices stay on). */
export const REQUIRED_KINDS: readonly MessageKind[] = ['receipt', 'renewal_upcoming'];

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
  /** In paise: what was paid, refunded, or will be charged (expiring, lapsed: what the last purchase cost). */
  amountPaise: number;
  /**
   * Our order's (`order_…`) or subscription's (`sub_…`) id: the store lists its invoice by it; for an
   * expiry, the premium's: `premium` (the buyer's own) or `server <guild id>`.
   */
  reference: string;
  /**
   * When the charge a pre-debit notice or a trial's end tells of comes, or when premium expires, as the
   * seller reads time (`2026-12-01 10:30 IST`).
   */
  date?: string;
}

import { createHash, createHmac } from 'node:crypto';
import { isAppError } from '../errors';
import type { RazorpayClient } from '../processor/razorpay-client';

/**
 * What the authorisation payment says of the instrument that paid it, in Razorpay's documented payment
 * entity: `vpa` (and `upi.vpa`), `card` (only when fetched with `expand[]=card`, or in a webhook),
 * `method`, and for a mandate its `token_id` and `customer_id`.
 */
export interface AuthorizationPayment {
  id: string;
  method?: string | null;
  vpa?: string | null;
  upi?: { vpa?: string | null } | null;
  card?: {
    last4?: string | null;
    network?: string | null;
    issuer?: string | null;
    type?: string | null;
  } | null;
  token_id?: string | null;
  customer_id?: string | null;
}

/** The instrument as a stable text, or why none could be read (shown to the operator with the trial). */
export type InstrumentReading = { instrument: string; unread: null } | { instrument: null; unread: string };

const read = (instrument: string): InstrumentReading => ({ instrument, unread: null });
const unread = (why: string): InstrumentReading => ({ instrument: null, unread: why });

/** No authorisation payment was seen (the reconciler started the trial from Razorpay's state). */
export const NO_AUTHORIZATION_PAYMENT = unread('no authorisation payment was seen');

/**
 * The instrument of an authorisation payment (docs/trials.md, "The instrument"):
 * - UPI: its VPA, case-folded;
 * - a card: network, issuer, type and last four digits (Razorpay documents no number or fingerprint that
 *   is the same across customers, so this is the closest honest key: it also matches another card of the
 *   same bank and network ending in the same four digits). A payment without its `card` is fetched with
 *   `expand[]=card`;
 * - an e-mandate: the bank account (IFSC and account number) of its token's `bank_details`.
 * Anything else, or a payment without those fields, is `unread`, with the reason. The processor not
 * answering throws its `unavailable` AppError: the caller decides later.
 */
export async function readInstrument(
  processor: RazorpayClient,
  payment: AuthorizationPayment,
): Promise<InstrumentReading> {
  const vpa = payment.vpa ?? payment.upi?.vpa ?? null;
  if (vpa) return read(`vpa:${vpa.trim().toLowerCase()}`);
  try {
    switch (payment.method) {
      case 'card':
        return cardOf(payment.card?.last4 ? payment : await processor.fetchPaymentWithCard(payment.id));
      case 'emandate':
      case 'nach':
        return await bankAccountOf(processor, payment);
      case 'upi':
        return unread('the UPI payment names no VPA');
      default:
        return unread(`a ${payment.method ?? 'payment of no method'} is not checked`);
    }
  } catch (error) {
    if (isAppError(error) && error.kind !== 'unavailable') {
      return unread(`Razorpay refused to say: ${error.message}`);
    }
    throw error;
  }
}

function cardOf({ card }: AuthorizationPayment): InstrumentReading {
  if (!card?.last4 || !card.network) return unread('the card payment names no last four digits and network');
  const parts = [card.network, card.issuer ?? '', card.type ?? '', card.last4];
  return read(`card:${parts.map((part) => part.trim().toLowerCase()).join(':')}`);
}

async function bankAccountOf(processor: RazorpayClient, payment: AuthorizationPayment) {
  if (!payment.token_id || !payment.customer_id) return unread('the mandate payment names no token');
  const token = await processor.fetchToken(payment.customer_id, payment.token_id);
  const account = token.bank_details;
  if (!account?.account_number || !account.ifsc) return unread('the mandate token names no bank account');
  return read(`bank:${account.ifsc.trim().toUpperCase()}:${account.account_number.trim()}`);
}

/** HMAC-SHA256 of an instrument, keyed by a key derived from JWT_SECRET: the instrument is never stored. */
export function instrumentHash(secret: string, instrument: string): string {
  const key = createHash('sha256').update(`premium:trial-instrument:${secret}`).digest();
  return createHmac('sha256', key).update(instrument).digest('hex');
}

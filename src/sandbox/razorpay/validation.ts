import type { RazorpayNotes } from '../../core/processor/types';
import { RazorpayApiError } from './errors';

const MAX_NOTES = 15;
const MAX_NOTE_LENGTH = 256;
const MAX_RECEIPT_LENGTH = 40;
const MIN_AMOUNT = 100;

type Body = Record<string, unknown>;

export interface OrderInput {
  amount: number;
  currency: string;
  receipt: string | null;
  notes: RazorpayNotes;
}

export interface RefundInput {
  amount: number | undefined;
  notes: RazorpayNotes;
  receipt: string | null;
}

export function invalid(field: string, description: string): RazorpayApiError {
  return new RazorpayApiError(400, description, field);
}

export function asBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RazorpayApiError(400, 'The request body must be a JSON object');
  }
  return body as Body;
}

export function rejectExtraFields(body: Body, allowed: string[]): void {
  const extra = Object.keys(body).filter((key) => !allowed.includes(key));
  if (extra.length > 0)
    throw invalid(extra[0]!, `${extra.join(', ')} is/are not required and should not be sent`);
}

/** Razorpay takes amounts in paise, as an integer or a string of digits. */
export function amount(value: unknown): number {
  const parsed = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isInteger(parsed))
    throw invalid('amount', 'The amount must be an integer.');
  if (parsed < MIN_AMOUNT) throw invalid('amount', 'The amount must be atleast INR 1.00');
  return parsed;
}

function receipt(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('receipt', 'The receipt must be a string.');
  if (value.length > MAX_RECEIPT_LENGTH) {
    throw invalid('receipt', `The receipt may not be greater than ${MAX_RECEIPT_LENGTH} characters.`);
  }
  return value;
}

export function notes(value: unknown): RazorpayNotes {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid('notes', 'The notes must be an object.');
  const entries = Object.entries(value as Body);
  if (entries.length > MAX_NOTES)
    throw invalid('notes', `Number of fields in notes should be less than or equal to ${MAX_NOTES}`);
  for (const [key, note] of entries) {
    if ((typeof note !== 'string' && typeof note !== 'number') || String(note).length > MAX_NOTE_LENGTH) {
      throw invalid(
        `notes.${key}`,
        `The notes.${key} must be a string or number of at most ${MAX_NOTE_LENGTH} characters.`,
      );
    }
  }
  return entries.length === 0 ? [] : (Object.fromEntries(entries) as Record<string, string | number>);
}

/** `POST /v1/orders`, with the checks Razorpay makes on the fields the service sends. */
export function orderInput(raw: unknown): OrderInput {
  const body = asBody(raw);
  rejectExtraFields(body, ['amount', 'currency', 'receipt', 'notes']);
  if (body.amount === undefined) throw invalid('amount', 'The amount field is required.');
  if (body.currency === undefined) throw invalid('currency', 'The currency field is required.');
  if (body.currency !== 'INR') throw invalid('currency', 'Currency is not supported');
  return {
    amount: amount(body.amount),
    currency: body.currency,
    receipt: receipt(body.receipt),
    notes: notes(body.notes),
  };
}

/** `POST /v1/payments/:id/refund`; without an amount the whole unrefunded remainder is refunded. */
export function refundInput(raw: unknown): RefundInput {
  const body = raw === undefined ? {} : asBody(raw);
  rejectExtraFields(body, ['amount', 'speed', 'notes', 'receipt']);
  if (body.speed !== undefined && body.speed !== 'normal')
    throw invalid('speed', 'Only normal speed refunds are supported');
  return {
    amount: body.amount === undefined ? undefined : amount(body.amount),
    notes: notes(body.notes),
    receipt: receipt(body.receipt),
  };
}

/** `X-Refund-Idempotency`: at least 10 letters, digits, hyphens or underscores, when sent. */
export function refundIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[A-Za-z0-9_-]{10,}$/.test(header)) {
    throw new RazorpayApiError(
      400,
      'The idempotency key must be at least 10 characters of letters, numbers, hyphens and underscores',
    );
  }
  return header;
}

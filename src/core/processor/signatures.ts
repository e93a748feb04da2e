import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';

/** What Razorpay Checkout hands the browser as `razorpay_signature`: HMAC-SHA256 with the key secret. */
export function paymentSignature(orderId: string, paymentId: string, keySecret: string): string {
  return createHmac('sha256', keySecret).update(`${orderId}|${paymentId}`).digest('hex');
}

/** `X-Razorpay-Signature` of a webhook: HMAC-SHA256 of the exact body bytes with the webhook secret. */
export function webhookSignature(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Constant-time comparison of two hex signatures; a malformed or differently sized one never matches. */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  const hex = /^(?:[0-9a-f]{2})+$/i;
  if (!hex.test(expectedHex) || !hex.test(givenHex)) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const given = Buffer.from(givenHex, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Refuses a signature that is not the expected one: 400 SIGNATURE_MISMATCH, `mismatch` saying of what. */
export function assertSignature(expectedHex: string, givenHex: string, mismatch: string): void {
  if (!signaturesMatch(expectedHex, givenHex)) throw AppError.validation('SIGNATURE_MISMATCH', mismatch);
}

/** What Checkout hands the browser for a subscription: HMAC-SHA256 of `payment_id|subscription_id` (this order). */
export function subscriptionSignature(paymentId: string, subscriptionId: string, keySecret: string): string {
  return createHmac('sha256', keySecret).update(`${paymentId}|${subscriptionId}`).digest('hex');
}

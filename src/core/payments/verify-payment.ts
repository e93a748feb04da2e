import { readSettings } from '../settings';
import type { Core } from '..';
import { assertSignature, paymentSignature } from '../processor/signatures';
import { assertActingForSelf } from '../identity/access';
import { applyPayment, type AppliedPayment } from './apply-payment';

export interface VerifyPaymentRequest {
  /** The signed-in user; the body's `providerId` must be the same, and so must the order's buyer. */
  callerProviderId: string;
  providerId: string;
  processorOrderId: string;
  paymentId: string;
  /** Checkout's `razorpay_signature`: HMAC-SHA256 of `order_id|payment_id` with the key secret. */
  signature: string;
}

/**
 * Spec §4.5: checks the processor's signature, then marks the order paid and grants, exactly once; or
 * refuses a late payment of an offer (`refused`), which the caller refunds (refundIfRefused).
 */
export async function verifyPayment(core: Core, request: VerifyPaymentRequest): Promise<AppliedPayment> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  const expected = paymentSignature(
    request.processorOrderId,
    request.paymentId,
    core.config.razorpay.keySecret,
  );
  assertSignature(expected, request.signature, 'the payment signature does not match the order and payment');
  return applyPayment(
    core.sequelize,
    { processorOrderId: request.processorOrderId, paymentId: request.paymentId },
    {
      source: 'checkout',
      buyerProviderId: request.providerId,
      invoicing: (await readSettings(core)).invoicing,
      offerHoldMinutes: core.config.offerHoldMinutes,
    },
  );
}

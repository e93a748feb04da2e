import type { Core } from '..';
import type { RazorpayClient } from '../processor/razorpay-client';
import type { RefundRequest, RefundResult } from './types';

/**
 * Refunds a payment from our side through Razorpay's refund API; premium is taken back (in full, or the
 * refunded share of its days) once Razorpay says the refund is processed.
 */
export async function requestRefund(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  request: RefundRequest,
): Promise<RefundResult> {
  void core;
  void processor;
  void request;
  throw new Error('not yet');
}

import type { Core } from '..';
import { AppError } from '../errors';
import { rupeesOfPaise } from '../money';
import type { AppliedPayment } from '../payments/apply-payment';
import { whyRefused } from '../payments/refusals';
import type { RazorpayClient } from '../processor/razorpay-client';
import { requestRefund } from './request-refund';
import type { RefundResult } from './types';

/** The actor of the refunds of refused payments, in the refund rows and the ledger. */
const ACTOR = 'offer-hold';

/**
 * Refunds in full the payment of an order applyPayment refused (`refused_code`), under one idempotency
 * key per order, so that every delivery of the payment asks again and Razorpay refunds once. Null when
 * Razorpay could not be asked or did not confirm: the reconciler's refund check asks again.
 */
export async function refundRefusedPayment(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  order: { processorOrderId: string; refusedCode: string },
): Promise<RefundResult | null> {
  return requestRefund(core, processor, {
    orderId: order.processorOrderId,
    reason: order.refusedCode,
    actor: ACTOR,
    idempotencyKey: `refused:${order.processorOrderId}`,
  }).catch(() => null);
}

/**
 * A payment as its payer is answered: a granted one as it is; a refused one (payments/refusals.ts) is
 * refunded in full first, then answered 409 with what happened to the money.
 */
export async function refundIfRefused(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  applied: AppliedPayment,
): Promise<AppliedPayment> {
  const { order, refused } = applied;
  if (refused === undefined) return applied;
  const refund = await refundRefusedPayment(core, processor, { ...order, refusedCode: refused });
  const money = refund
    ? `${rupeesOfPaise(order.amountPaise)} is refunded in full (refund ${refund.refundId})`
    : `${rupeesOfPaise(order.amountPaise)} is being refunded in full`;
  throw AppError.conflict(
    refused,
    `${whyRefused(refused, order.processorOrderId, core.config.offerHoldMinutes)} and ${money}`,
  );
}

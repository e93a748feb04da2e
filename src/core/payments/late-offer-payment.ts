import type { PlainTransaction } from '../db/plain-transaction';
import { brokenByLatePayment, dropRedemption } from '../offers';
import { orderPaidRefused } from '../orders/changes';
import { noticePurchase, noticeStatement } from '../seller-notices';
import type { AppliedPayment, CapturedPayment, PayableOrder } from './apply-payment';

/** Why a late payment of an order with an offer was refused and refunded (docs/offers.md). */
export const OFFER_HOLD_EXPIRED = 'OFFER_HOLD_EXPIRED';

/**
 * A payment of an order whose offer hold lapsed, when granting it would break one of the offer's rules
 * (docs/offers.md, "How the caps hold"): the order is marked paid by it and refused, never granted, its
 * redemption dropped, and the seller told, in the payment's transaction. The caller then refunds it in
 * full (refundRefusedPayment). Null when the payment may be granted as any other.
 */
export async function refuseLatePayment(
  transaction: PlainTransaction,
  order: PayableOrder,
  payment: CapturedPayment,
  holdMinutes: number,
): Promise<AppliedPayment | null> {
  const broken = await brokenByLatePayment(
    transaction,
    { offerId: order.offerId!, buyerUserId: order.buyerUserId },
    holdMinutes,
  );
  if (!broken) return null;
  await transaction.rows(orderPaidRefused(order.id, payment.paymentId, OFFER_HOLD_EXPIRED));
  await transaction.rows(dropRedemption(order.receipt));
  await transaction.rows(
    noticeStatement({
      kind: 'offer_refund',
      buyer: { providerId: order.buyerProviderId, username: order.buyerUsername },
      purchase: noticePurchase(order),
      amountPaise: order.amountPaise,
      orderId: order.processorOrderId,
      offerCode: broken.code,
      rule: broken.rule,
    }),
  );
  return {
    order: { ...order, status: 'paid', paymentId: payment.paymentId, refusedCode: OFFER_HOLD_EXPIRED },
    change: null,
    refused: OFFER_HOLD_EXPIRED,
  };
}

import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { LOCK_CHARGE_PAID_BY, LOCK_ORDER_BY_ID, LOCK_ORDER_PAID_BY } from './sql';

/** A payment of ours that can be refunded: an order's, or a subscription charge's. */
export interface RefundablePayment {
  paymentId: string;
  amountPaise: number;
  orderId: string | null;
  subscriptionId: string | null;
  /** Refunded in full, or its dispute lost: nothing more can be refunded (`refusedIfRefunded`). */
  refundedAs: string | null;
}

/**
 * Finds the payment an operator named (by its order, or by the payment id of an order or a charge) and
 * locks its row for the rest of the transaction, as the refund webhook does, so the two run in turn. A
 * payment refunded already is found all the same: the refund that did it is still to be answered.
 */
export async function lockRefundablePayment(
  transaction: Transaction,
  named: { orderId?: string; paymentId?: string },
): Promise<RefundablePayment> {
  const [order] = await selectRows<{
    processor_order_id: string;
    payment_id: string | null;
    amount_paise: number;
    status: string;
  }>(transaction, named.orderId !== undefined ? LOCK_ORDER_BY_ID : LOCK_ORDER_PAID_BY, [
    named.orderId ?? named.paymentId,
  ]);
  if (order) {
    if (order.payment_id === null || order.status === 'created') {
      throw AppError.conflict(
        'ORDER_NOT_PAID',
        `order ${order.processor_order_id} is not paid: nothing to refund`,
      );
    }
    return {
      paymentId: order.payment_id,
      amountPaise: order.amount_paise,
      orderId: order.processor_order_id,
      subscriptionId: null,
      refundedAs: order.status === 'refunded' ? `order ${order.processor_order_id}` : null,
    };
  }
  if (named.orderId !== undefined) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${named.orderId}`);
  const [charge] = await selectRows<{
    payment_id: string;
    amount_paise: number;
    status: string;
    processor_subscription_id: string;
  }>(transaction, LOCK_CHARGE_PAID_BY, [named.paymentId]);
  if (!charge) {
    throw AppError.notFound(
      'PAYMENT_NOT_FOUND',
      `no order or subscription charge paid by ${named.paymentId}`,
    );
  }
  return {
    paymentId: charge.payment_id,
    amountPaise: charge.amount_paise,
    orderId: null,
    subscriptionId: charge.processor_subscription_id,
    refundedAs: charge.status === 'refunded' ? `charge ${charge.payment_id}` : null,
  };
}

/** ALREADY_REFUNDED for a payment refunded in full or charged back: no new refund of it is asked for. */
export function refusedIfRefunded(payment: RefundablePayment): void {
  if (payment.refundedAs !== null) {
    throw AppError.conflict(
      'ALREADY_REFUNDED',
      `${payment.refundedAs} is already refunded (or its dispute was lost)`,
    );
  }
}

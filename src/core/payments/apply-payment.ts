import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import type { Order, User } from '../models';
import { grantPremium } from '../premium/grant';
import type { GrantSource, PremiumChange } from '../premium/types';
import { lockOrder } from './locked-order';

export type PaymentSource = Exclude<GrantSource, 'manual' | 'subscription'>;

export interface PaymentAmount {
  /** In paise. */
  amount: number;
  currency: string;
}

export interface CapturedPayment {
  processorOrderId: string;
  paymentId: string;
  /** What the processor says was paid; Checkout's signed response carries none (the order fixed it). */
  paid?: PaymentAmount;
}

export interface AppliedPayment {
  order: Order;
  change: PremiumChange;
}

const ACTORS: Record<PaymentSource, (buyer: User) => string> = {
  checkout: (buyer) => `user:${buyer.providerId}`,
  webhook: () => 'razorpay-webhook',
  reconcile: () => 'reconciler',
};

/** Why a payment cannot pay for an order, or null when it covers it exactly. */
export function amountMismatch(order: Order, paid: PaymentAmount): string | null {
  if (paid.amount === order.amountPaise && paid.currency === order.currency) return null;
  return `the payment of ${paid.amount} ${paid.currency} (paise) does not match order ${order.processorOrderId}'s ${order.amountPaise} ${order.currency}`;
}

/**
 * The one way an order becomes paid and its premium granted, for verify-payment, webhooks and the
 * reconciler alike. Under the order's row lock it marks the order paid with the payment and grants what
 * the stored order says, keyed `order:<processor order id>`: the same payment again (a retry, the webhook
 * after the browser, 20 at once) changes nothing and returns the first grant, flagged `replayed`.
 *
 * Every refusal is thrown before anything is written: ORDER_NOT_FOUND, NOT_YOUR_ORDER (when
 * `buyerProviderId` is given), AMOUNT_MISMATCH, ORDER_ALREADY_PAID (by another payment), ORDER_REFUNDED.
 */
export async function applyPayment(
  sequelize: Sequelize,
  payment: CapturedPayment,
  context: { source: PaymentSource; buyerProviderId?: string; transaction?: Transaction },
): Promise<AppliedPayment> {
  return withTransaction(sequelize, context.transaction, async (transaction) => {
    const { order, buyer } = await lockOrder(transaction, payment.processorOrderId);
    if (context.buyerProviderId !== undefined && buyer.providerId !== context.buyerProviderId) {
      throw AppError.forbidden('NOT_YOUR_ORDER', `order ${order.processorOrderId} belongs to another user`);
    }
    const mismatch = payment.paid && amountMismatch(order, payment.paid);
    if (mismatch) throw AppError.validation('AMOUNT_MISMATCH', mismatch);
    if (order.paymentId !== null && order.paymentId !== payment.paymentId) {
      throw AppError.conflict(
        'ORDER_ALREADY_PAID',
        `order ${order.processorOrderId} is already paid by another payment`,
      );
    }
    if (order.status === 'refunded') {
      throw AppError.conflict('ORDER_REFUNDED', `order ${order.processorOrderId} was refunded`);
    }
    if (order.status === 'created') {
      await order.update(
        { status: 'paid', paymentId: payment.paymentId, paidAt: new Date() },
        { transaction },
      );
    }
    const change = await grantPremium(
      sequelize,
      {
        category: order.category,
        providerId: buyer.providerId,
        guildId: order.guildId,
        plan: { planType: order.planType, months: order.months, durationDays: order.durationDays },
        source: context.source,
        actor: ACTORS[context.source](buyer),
        reason: `payment ${payment.paymentId}`,
        order: { id: order.id, processorOrderId: order.processorOrderId },
        idempotencyKey: `order:${order.processorOrderId}`,
      },
      { transaction },
    );
    return { order, change };
  });
}

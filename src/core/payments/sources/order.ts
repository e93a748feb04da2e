import { Transaction } from 'sequelize';
import { AppError } from '../../errors';
import { Order, PremiumGrant, User } from '../../models';
import { recordOrderDispute, recordOrderRestoreGrant, setOrderStanding } from '../../orders/changes';
import { planOf } from '../../plans';
import { grantsOfOrder } from '../../premium/grant-paid-for';
import { noticeBuyer } from '../../seller-notices';
import { messagePlan } from '../../buyer-messages';
import { applyPayment } from '../apply-payment';
import type { PaymentContext, PaymentOfSource } from '../locked-payment';

/**
 * An order's payment, under the order's lock. A dispute or refund that comes before the payment was
 * applied records the payment (learnedPayment) with the order's standing, and grants nothing until a
 * dispute is won.
 */
export async function lockOrderPayment(
  { sequelize, transaction, paymentId, invoicing }: PaymentContext,
  which: { id: number } | { processorOrderId: string },
): Promise<PaymentOfSource | null> {
  const order = await Order.findOne({ where: which, lock: Transaction.LOCK.NO_KEY_UPDATE, transaction });
  if (!order) {
    const named = 'id' in which ? `of payment ${paymentId}` : which.processorOrderId;
    throw AppError.notFound('ORDER_NOT_FOUND', `no order ${named}`);
  }
  if (order.paymentId !== null && order.paymentId !== paymentId) return null;
  const buyer = await User.findByPk(order.buyerUserId, { transaction, rejectOnEmpty: true });
  const name = `order ${order.processorOrderId}`;
  return {
    source: 'order',
    name,
    buyer: noticeBuyer(buyer),
    to: { providerId: buyer.providerId, username: buyer.username },
    paymentId,
    amountPaise: order.amountPaise,
    standing: order.status,
    owner: { orderId: order.id },
    ...grantsOfOrder(order),
    premium: { source: 'webhook' },
    // Not linked to the order: an order has one grant (the database says so), and the first one stays
    // in the ledger, revoked.
    plan: {
      category: order.category,
      providerId: buyer.providerId,
      guildId: order.guildId,
      plan: planOf(order),
    },
    messagePlan: messagePlan(order),
    reference: order.processorOrderId,
    refundRevokeKey: `refund:${order.processorOrderId}`,
    refundSource: (byOperator, seenBy) => (byOperator ? 'manual' : seenBy),
    setStanding: (status) => setOrderStanding(order, status, paymentId, transaction),
    recordDispute: (disputeId, disputeStatus) =>
      recordOrderDispute(order, disputeId, disputeStatus, transaction),
    recordRestoreGrant: (restoreGrantId) => recordOrderRestoreGrant(order, restoreGrantId, transaction),
    ...(invoicing && {
      applyIfNeverGranted: async () => {
        if ((await PremiumGrant.count({ where: { orderId: order.id, kind: 'grant' }, transaction })) > 0)
          return;
        await applyPayment(
          sequelize,
          { processorOrderId: order.processorOrderId, paymentId },
          { source: 'webhook', transaction, invoicing },
        );
      },
    }),
  };
}

import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { Order, PremiumGrant, type User } from '../models';
import { applyPayment } from '../payments/apply-payment';
import { learnedPayment } from '../payments/learned-payment';
import { lockOrder } from '../orders/locked-order';
import { grantsOfOrder } from './grant-paid-for';
import { applyDisputeStage, ignored } from './stages';
import type { DisputedPayment, DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback of an order's payment. The stage rules are shared with subscription charges (README.md,
 * docs/money-rules.md); the order only adds its status and, when the dispute comes before the payment,
 * the payment itself. Each stage applies once whatever the delivery order (docs/delivery-order.md).
 */
export async function applyDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  options: { transaction?: Transaction } = {},
): Promise<DisputeOutcome> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const processorOrderId =
      dispute.processorOrderId ?? (await orderOfPayment(dispute.paymentId, transaction));
    const { order, buyer } = await lockOrder(transaction, processorOrderId);
    if (order.paymentId !== null && order.paymentId !== dispute.paymentId) {
      return ignored(
        `dispute ${dispute.disputeId} is for payment ${dispute.paymentId}, which did not pay the order`,
      );
    }
    return applyDisputeStage(
      sequelize,
      transaction,
      disputedOrder(sequelize, { order, buyer }, dispute.paymentId, transaction),
      dispute,
    );
  });
}

/**
 * The order as the stage rules see it. A dispute that comes before its payment was applied records the
 * payment (learnedPayment) with the order's standing, and grants nothing until the dispute is won.
 */
export function disputedOrder(
  sequelize: Sequelize,
  { order, buyer }: { order: Order; buyer: User },
  paymentId: string,
  transaction: Transaction,
): DisputedPayment {
  return {
    name: `order ${order.processorOrderId}`,
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
      plan: { planType: order.planType, months: order.months, durationDays: order.durationDays },
    },
    setStanding: async (status) => {
      await order.update(
        {
          status,
          ...(status === 'refunded' && { refundedAt: new Date() }),
          ...(order.status === 'created' && learnedPayment(paymentId)),
        },
        { transaction },
      );
    },
    recordDispute: async (disputeId, disputeStatus) => {
      await order.update({ disputeId, disputeStatus }, { transaction });
    },
    recordRestoreGrant: async (restoreGrantId) => {
      await order.update({ restoreGrantId }, { transaction });
    },
    applyIfNeverGranted: async () => {
      if ((await PremiumGrant.count({ where: { orderId: order.id, kind: 'grant' }, transaction })) > 0)
        return;
      await applyPayment(
        sequelize,
        { processorOrderId: order.processorOrderId, paymentId },
        { source: 'webhook', transaction },
      );
    },
  };
}

async function orderOfPayment(paymentId: string, transaction: Transaction): Promise<string> {
  const order = await Order.findOne({ where: { paymentId }, attributes: ['processorOrderId'], transaction });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${paymentId}`);
  return order.processorOrderId;
}

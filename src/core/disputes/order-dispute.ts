import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { Order } from '../models';
import { disputedOrder } from '../payments/disputed-order';
import { lockOrder } from '../orders/locked-order';
import type { RevokeLimit } from '../premium/revoke';
import { applyDisputeStage, ignored } from './stages';
import type { DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback of an order's payment. The stage rules are shared with subscription charges (README.md,
 * docs/money-rules.md); the order only adds its status and, when the dispute comes before the payment,
 * the payment itself. Each stage applies once whatever the delivery order (docs/delivery-order.md).
 */
export async function applyDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  options: { transaction?: Transaction; invoicing: InvoiceSettings } & RevokeLimit,
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
      disputedOrder(sequelize, { order, buyer }, dispute.paymentId, transaction, options.invoicing),
      dispute,
      { maxRevokesPerHour: options.maxRevokesPerHour },
    );
  });
}

async function orderOfPayment(paymentId: string, transaction: Transaction): Promise<string> {
  const order = await Order.findOne({ where: { paymentId }, attributes: ['processorOrderId'], transaction });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${paymentId}`);
  return order.processorOrderId;
}

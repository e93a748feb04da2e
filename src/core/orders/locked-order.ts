import { Transaction } from 'sequelize';
import { AppError } from '../errors';
import { Order, User } from '../models';

export interface LockedOrder {
  order: Order;
  buyer: User;
}

/**
 * Locks the order row for the rest of the transaction: everything that changes an order's status
 * (verification, webhooks, the reconciler, refunds) goes through here, so they run one after another.
 * NO KEY UPDATE: a ledger row naming the order (a transfer moving its days) is not held up by it, so a
 * refund waiting for that transfer cannot deadlock with it.
 */
export async function lockOrder(transaction: Transaction, processorOrderId: string): Promise<LockedOrder> {
  const order = await Order.findOne({
    where: { processorOrderId },
    lock: Transaction.LOCK.NO_KEY_UPDATE,
    transaction,
  });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${processorOrderId}`);
  const buyer = await User.findByPk(order.buyerUserId, { transaction, rejectOnEmpty: true });
  return { order, buyer };
}

import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { Order } from '../models';
import { disputedOrder } from '../payments/disputed-order';
import { lockOrder } from '../orders/locked-order';
import type { RevokeLimit } from '../premium/revoke';
import { applyDisputeStage, ignored } from './stages';
import type { DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback (docs/design.md, Money rules): `created` revokes the order's grant (`*_PREMIUM_REMOVE`, order
 * `disputed`, reason `dispute <id>`), `won` restores what it took (order `paid`), `lost` leaves premium
 * revoked (order `refunded`) and `closed` changes no premium.
 *
 * Razorpay delivers these at least once and in any order, so each applies once and the end state does not
 * depend on their order: each dispute's stage is kept (`payment_disputes`), a stage already passed is
 * ignored, and a late `created` after `won` or `lost` changes nothing (those settled the premium already).
 * `lost` arriving before `created` therefore revokes itself: the money is gone either way. Of several
 * disputes of one payment, only one revokes its premium: one that finds it revoked takes nothing, and a
 * `won` restores nothing while another dispute of the payment keeps it revoked (README.md).
 *
 * A dispute that comes before its payment was applied finds the order unpaid: it records the payment
 * with the order's standing (`disputed`, or `refunded` when lost) and revokes nothing, as nothing was
 * granted; the late payment is then refused (PAYMENT_DISPUTED), and a won dispute grants it.
 */
export async function applyDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  options: { transaction?: Transaction } & RevokeLimit = {},
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
      { maxRevokesPerHour: options.maxRevokesPerHour },
    );
  });
}

async function orderOfPayment(paymentId: string, transaction: Transaction): Promise<string> {
  const order = await Order.findOne({ where: { paymentId }, attributes: ['processorOrderId'], transaction });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${paymentId}`);
  return order.processorOrderId;
}

import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { lockPayment } from '../payments/locked-payment';
import type { RevokeLimit } from '../premium/revoke';
import { applyDisputeStage, ignored } from './stages';
import type { DisputeOutcome, PaymentDispute } from './types';

/**
 * A chargeback of a payment, an order's or a subscription charge's, by the stage rules (README.md,
 * docs/money-rules.md). Each stage applies once whatever the delivery order (docs/delivery-order.md);
 * a dispute that comes before its order's payment records the payment with the dispute's standing.
 */
export async function applyDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  options: { transaction?: Transaction; invoicing: InvoiceSettings } & RevokeLimit,
): Promise<DisputeOutcome> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const payment = await lockPayment(sequelize, transaction, dispute, options.invoicing);
    if (!payment && dispute.processorOrderId) {
      return ignored(
        `dispute ${dispute.disputeId} is for payment ${dispute.paymentId}, which did not pay the order`,
      );
    }
    if (!payment) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${dispute.paymentId}`);
    return applyDisputeStage(sequelize, transaction, payment, dispute, {
      maxRevokesPerHour: options.maxRevokesPerHour,
    });
  });
}

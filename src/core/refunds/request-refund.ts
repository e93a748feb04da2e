import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { execute, selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { applyRefund } from './order-refund';
import type { RazorpayClient, RazorpayRefund } from '../processor/razorpay-client';
import { applyChargeRefund } from './charge-refund';
import { lockRefundablePayment, type RefundablePayment } from './refundable-payment';
import type { RefundRequest, RefundResult, RefundStatus } from './types';
import {
  INSERT_REQUESTED,
  MARK_FAILED,
  PROCESSED_TOTAL_WITH,
  RECORD_ANSWER,
  REFUND_RESULT,
  REFUNDED_SO_FAR,
  UNCONFIRMED_REFUND,
} from './sql';

interface RefundRow {
  id: number;
  receipt: string;
  amount_paise: number;
  resumed: boolean;
}

/**
 * Refunds a payment from our side (docs/refunds.md), in three steps:
 * 1. under the payment's row lock, what is left to refund is worked out from `payment_refunds` and the
 *    refund is written down as `requested` with its own receipt, before Razorpay is asked. Nothing left
 *    is ALREADY_REFUNDED, and Razorpay is not asked;
 * 2. Razorpay's refund API is called with that receipt. When an earlier attempt's answer was lost (the
 *    row is still `requested`), Razorpay's refunds of the payment are read first and one with the receipt
 *    is taken as the answer, so a retry refunds once;
 * 3. the answer is recorded; when it says `processed`, premium is taken back at once through the refund
 *    rules (`applyRefund`, `applyChargeRefund`: all of it, or the refunded share of its days), otherwise
 *    when the `refund.processed` webhook comes. Whichever comes first applies it; the other finds it done.
 */
export async function requestRefund(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  request: RefundRequest,
): Promise<RefundResult> {
  validate(request);
  const { sequelize } = core;
  const { payment, row } = await sequelize.transaction(async (transaction) => {
    const payment = await lockRefundablePayment(transaction, request);
    return { payment, row: await reserve(transaction, payment, request) };
  });

  const refund = await askRazorpay(processor, payment, row, request).catch(async (error: unknown) => {
    // A refusal is final; anything else may have refunded, so the row stays for the retry to find.
    if (isAppError(error) && error.kind === 'validation') {
      await execute(sequelize, MARK_FAILED, [row.id]);
      throw error;
    }
    throw AppError.unavailable(
      'REFUND_UNCONFIRMED',
      `Razorpay did not confirm the refund of ${payment.paymentId} (${isAppError(error) ? error.message : 'no answer'}); ` +
        'run the same command again: it finds the refund if Razorpay made it, and refunds once',
    );
  });

  await sequelize.transaction(async (transaction) => {
    await lockRefundablePayment(transaction, { paymentId: payment.paymentId });
    await execute(transaction, RECORD_ANSWER, [
      row.id,
      refund.id,
      refund.status === 'processed' ? 'pending' : refund.status,
    ]);
    if (refund.status === 'processed') await applyProcessed(core, payment, refund, transaction);
  });
  return result(core, payment, refund);
}

function validate(request: RefundRequest): void {
  if ((request.orderId === undefined) === (request.paymentId === undefined)) {
    throw AppError.validation('INVALID_REFUND', 'name the payment by exactly one of orderId or paymentId');
  }
  if (
    request.amountPaise !== undefined &&
    !(Number.isInteger(request.amountPaise) && request.amountPaise >= 100)
  ) {
    throw AppError.validation(
      'INVALID_AMOUNT',
      'a refund is a whole number of paise, at least ₹1 (100 paise)',
    );
  }
  if (request.reason.trim() === '') throw AppError.validation('REASON_REQUIRED', 'a refund needs a reason');
  if (request.actor.trim() === '') throw AppError.validation('ACTOR_REQUIRED', 'a refund needs an actor');
}

/** Step 1: the refund written down before Razorpay is asked, or the earlier attempt still unconfirmed. */
async function reserve(
  transaction: Transaction,
  payment: RefundablePayment,
  request: RefundRequest,
): Promise<RefundRow> {
  const [unconfirmed] = await selectRows<Omit<RefundRow, 'resumed'>>(transaction, UNCONFIRMED_REFUND, [
    payment.paymentId,
  ]);
  if (unconfirmed) {
    if (request.amountPaise !== undefined && request.amountPaise !== unconfirmed.amount_paise) {
      throw AppError.conflict(
        'REFUND_UNCONFIRMED',
        `a refund of ${unconfirmed.amount_paise} paise of ${payment.paymentId} is not confirmed yet; ` +
          'repeat it with that amount (or none) before asking for another',
      );
    }
    return { ...unconfirmed, id: Number(unconfirmed.id), resumed: true };
  }
  const [refunded] = await selectRows<{ paise: string; count: string }>(transaction, REFUNDED_SO_FAR, [
    payment.paymentId,
  ]);
  const left = payment.amountPaise - Number(refunded!.paise);
  if (left <= 0) {
    throw AppError.conflict('ALREADY_REFUNDED', `payment ${payment.paymentId} is already refunded in full`);
  }
  const amount = request.amountPaise ?? left;
  if (amount > left) {
    throw AppError.validation(
      'AMOUNT_TOO_LARGE',
      `only ${left} paise of payment ${payment.paymentId} are left to refund, not ${amount}`,
    );
  }
  const receipt = `refund_${payment.paymentId}_${Number(refunded!.count) + 1}`;
  const [row] = await selectRows<{ id: number }>(transaction, INSERT_REQUESTED, [
    'orderId' in payment.owner ? payment.owner.orderId : null,
    'chargeId' in payment.owner ? payment.owner.chargeId : null,
    payment.paymentId,
    amount,
    receipt,
    request.reason,
    request.actor,
  ]);
  return { id: Number(row!.id), receipt, amount_paise: amount, resumed: false };
}

/** Step 2. */
async function askRazorpay(
  processor: RazorpayClient,
  payment: RefundablePayment,
  row: RefundRow,
  request: RefundRequest,
): Promise<RazorpayRefund> {
  if (row.resumed) {
    const made = (await processor.fetchPaymentRefunds(payment.paymentId)).find(
      (r) => r.receipt === row.receipt,
    );
    if (made) return made;
  }
  return processor.refundPayment(payment.paymentId, {
    amount: row.amount_paise,
    receipt: row.receipt,
    notes: { reason: request.reason.slice(0, 256), actor: request.actor.slice(0, 256) },
  });
}

/** Step 3, when Razorpay's answer already says processed: the same rules as its webhook. */
async function applyProcessed(
  core: Pick<Core, 'sequelize' | 'config'>,
  payment: RefundablePayment,
  refund: RazorpayRefund,
  transaction: Transaction,
): Promise<void> {
  const [refunded] = await selectRows<{ paise: string }>(transaction, PROCESSED_TOTAL_WITH, [
    payment.paymentId,
    refund.id,
  ]);
  const entity = {
    refundId: refund.id,
    paymentId: payment.paymentId,
    refundedTotal: Number(refunded!.paise),
    amountPaise: refund.amount,
    receipt: refund.receipt,
  };
  if (payment.orderId !== null) {
    await applyRefund(core.sequelize, { ...entity, processorOrderId: payment.orderId }, { transaction });
  } else {
    await applyChargeRefund(core.sequelize, entity, transaction, {
      maxRevokesPerHour: core.config.maxRevokesPerHour,
    });
  }
}

async function result(
  core: Pick<Core, 'sequelize'>,
  payment: RefundablePayment,
  refund: RazorpayRefund,
): Promise<RefundResult> {
  const [row] = await selectRows<{ status: RefundStatus; days_taken: number; total: string }>(
    core.sequelize,
    REFUND_RESULT,
    [refund.id],
  );
  return {
    refundId: refund.id,
    paymentId: payment.paymentId,
    orderId: payment.orderId,
    subscriptionId: payment.subscriptionId,
    amountPaise: refund.amount,
    refundedTotalPaise: Number(row!.total),
    paymentAmountPaise: payment.amountPaise,
    status: row!.status,
    daysTaken: row!.days_taken,
  };
}

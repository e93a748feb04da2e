import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { execute, selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { applyRefund } from './order-refund';
import type { RazorpayClient, RazorpayRefund } from '../processor/razorpay-client';
import { applyChargeRefund } from './charge-refund';
import { lockRefundablePayment, refusedIfRefunded, type RefundablePayment } from './refundable-payment';
import type { RefundRequest, RefundResult, RefundStatus } from './types';
import { rupeesOfPaise } from './amount';
import {
  INSERT_ANSWERED,
  INSERT_REQUESTED,
  LOCK_REFUNDS_OF_PAYMENT,
  MARK_FAILED,
  PAYMENT_OF_ORDER,
  PROCESSED_TOTAL_WITH,
  RECORD_ANSWER,
  REFUND_RESULT,
  REFUND_BY_KEY,
  REFUNDED_SO_FAR,
  UNCONFIRMED_REFUND,
} from './sql';

interface RefundRow {
  id: number;
  receipt: string;
  amount_paise: number;
  /** An earlier attempt's row whose answer never came: Razorpay may have made it. */
  resumed: boolean;
  /** Answered already: the refund its idempotency key asked for before. */
  refundId: string | null;
}

/**
 * Refunds a payment from our side (docs/refunds.md). Refunds of one payment are asked one at a time: each
 * holds the payment's refund lock (LOCK_REFUNDS_OF_PAYMENT, its own transaction) from writing its row to
 * recording Razorpay's answer, so a second refund started meanwhile waits and then counts the first.
 * 1. under the payment's row lock, what is left to refund is worked out from `payment_refunds` and the
 *    refund is written down as `requested` with its own receipt before Razorpay is asked. Nothing left is
 *    ALREADY_REFUNDED; an idempotency key used before answers that refund (IDEMPOTENCY_KEY_REUSED when it
 *    named another payment or amount);
 * 2. Razorpay's refund API is called with the receipt, which is also its `X-Refund-Idempotency` key, so a
 *    retry after a lost answer never refunds twice;
 * 3. the answer is recorded; when it says `processed`, premium is taken back at once through the refund
 *    rules (`applyRefund`, `applyChargeRefund`), otherwise when the `refund.processed` webhook comes.
 */
export async function requestRefund(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  request: RefundRequest,
): Promise<RefundResult> {
  validate(request);
  const { sequelize } = core;
  return sequelize.transaction(async (refundLock) => {
    await execute(refundLock, LOCK_REFUNDS_OF_PAYMENT, [await paymentNamed(refundLock, request)]);
    const { payment, row } = await sequelize.transaction(async (transaction) => {
      const payment = await lockRefundablePayment(transaction, request);
      return { payment, row: await reserve(transaction, payment, request) };
    });
    if (row.refundId !== null) return result(refundLock, payment, row.refundId);

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
      await recordAnswer(transaction, row.id, refund);
      if (refund.status === 'processed') await applyProcessed(core, payment, refund, transaction);
    });
    return result(refundLock, payment, refund.id);
  });
}

/** The payment a refund request names, for its lock: the order's payment, or the order while it has none. */
async function paymentNamed(transaction: Transaction, request: RefundRequest): Promise<string> {
  if (request.orderId === undefined) return request.paymentId!;
  const [order] = await selectRows<{ paymentId: string | null }>(transaction, PAYMENT_OF_ORDER, [
    request.orderId,
  ]);
  return order?.paymentId ?? request.orderId;
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
  const earlier = await refundUnderKey(transaction, payment, request);
  if (earlier) return earlier;
  refusedIfRefunded(payment);
  const [unconfirmed] = await selectRows<Pick<RefundRow, 'id' | 'receipt' | 'amount_paise'>>(
    transaction,
    UNCONFIRMED_REFUND,
    [payment.paymentId],
  );
  if (unconfirmed) {
    if (request.amountPaise !== undefined && request.amountPaise !== unconfirmed.amount_paise) {
      throw AppError.conflict(
        'REFUND_UNCONFIRMED',
        `a refund of ${rupeesOfPaise(unconfirmed.amount_paise)} of ${payment.paymentId} is not confirmed yet; ` +
          'repeat it with that amount (or none) before asking for another',
      );
    }
    return { ...unconfirmed, id: Number(unconfirmed.id), resumed: true, refundId: null };
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
      `only ${rupeesOfPaise(left)} of payment ${payment.paymentId} is left to refund, not ${rupeesOfPaise(amount)}`,
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
    request.idempotencyKey ?? null,
  ]);
  return { id: Number(row!.id), receipt, amount_paise: amount, resumed: false, refundId: null };
}

/** The refund asked for under the request's idempotency key before: answered again, never asked twice. */
async function refundUnderKey(
  transaction: Transaction,
  payment: RefundablePayment,
  request: RefundRequest,
): Promise<RefundRow | null> {
  const key = request.idempotencyKey;
  if (key === undefined) return null;
  const [row] = await selectRows<{
    id: number;
    paymentId: string;
    amount_paise: number;
    receipt: string;
    status: string;
    refundId: string | null;
  }>(transaction, REFUND_BY_KEY, [key]);
  if (!row) return null;
  const amount = request.amountPaise ?? row.amount_paise;
  if (row.paymentId !== payment.paymentId || amount !== row.amount_paise) {
    throw AppError.conflict(
      'IDEMPOTENCY_KEY_REUSED',
      `idempotency key ${key} was used for a refund of ${rupeesOfPaise(row.amount_paise)} of ${row.paymentId}`,
    );
  }
  if (row.status === 'failed') {
    throw AppError.conflict(
      'REFUND_REFUSED',
      `Razorpay refused the refund asked for under idempotency key ${key}; ask again under a new key`,
    );
  }
  const answered = row.status !== 'requested';
  return { ...row, id: Number(row.id), resumed: !answered, refundId: answered ? row.refundId : null };
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
    idempotencyKey: row.receipt,
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

/**
 * Step 3: Razorpay's answer on the row written for it, unless its webhook got there first. A refund the
 * row does not name (Razorpay made another under the same receipt) is recorded as a row of its own, so it
 * is counted, and its webhook takes its days, like any other.
 */
async function recordAnswer(transaction: Transaction, rowId: number, refund: RazorpayRefund): Promise<void> {
  const status = refund.status === 'processed' ? 'pending' : refund.status;
  const [recorded] = await selectRows(transaction, RECORD_ANSWER, [rowId, refund.id, status]);
  if (!recorded) await execute(transaction, INSERT_ANSWERED, [rowId, refund.id, status, refund.amount]);
}

async function result(
  transaction: Transaction,
  payment: RefundablePayment,
  refundId: string,
): Promise<RefundResult> {
  const [row] = await selectRows<{
    status: RefundStatus;
    days_taken: number;
    amount_paise: number;
    total: string;
  }>(transaction, REFUND_RESULT, [refundId]);
  if (!row) throw new Error(`refund ${refundId} was answered but has no row`);
  return {
    refundId,
    paymentId: payment.paymentId,
    orderId: payment.orderId,
    subscriptionId: payment.subscriptionId,
    amountPaise: row.amount_paise,
    refundedTotalPaise: Number(row.total),
    paymentAmountPaise: payment.amountPaise,
    status: row.status,
    daysTaken: row.days_taken,
  };
}

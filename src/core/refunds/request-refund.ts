import { readSettings } from '../settings';
import type { Sequelize, Transaction } from 'sequelize';
import type { Core } from '..';
import { execute, selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import type { RazorpayClient, RazorpayRefund } from '../processor/razorpay-client';
import { applyRefund } from './payment-refund';
import { lockRefundablePayment, type RefundablePayment } from './refundable-payment';
import { reserveRefund, type RefundRow } from './refund-reservation';
import {
  INSERT_ANSWERED,
  MARK_FAILED,
  PROCESSED_TOTAL_WITH,
  RECORD_ANSWER,
  REFUND_RESULT,
  START_ASKING,
  STOP_ASKING,
} from './sql';
import type { RefundRequest, RefundResult, RefundStatus } from './types';

/**
 * Refunds a payment from our side (docs/refunds.md), in three steps:
 * 1. its row is written down as `requested`, with its own receipt, before Razorpay is asked
 *    (reserveRefund: one refund of a payment asked at a time; an idempotency key used before answers
 *    that refund);
 * 2. Razorpay's refund API is called with that receipt, which is also its `X-Refund-Idempotency` key;
 *    a retry of a row whose answer was lost sends the same request again, so it refunds once;
 * 3. the answer is recorded; when it says `processed`, premium is taken back at once through the refund
 *    rules (`applyRefund`), otherwise when the `refund.processed` webhook comes.
 */
export async function requestRefund(
  core: Pick<Core, 'sequelize' | 'config'>,
  processor: RazorpayClient,
  request: RefundRequest,
): Promise<RefundResult> {
  validate(request);
  const { sequelize } = core;
  const { payment, row } = await reserveRefund(core, request);
  if (row.refundId !== null) return result(sequelize, payment, row.refundId);

  const refund = await askRazorpay(sequelize, processor, payment, row).catch(async (error: unknown) => {
    const made =
      isAppError(error) && error.kind === 'validation' && (await madeAnyway(processor, payment, row));
    if (made) return made;
    if (isRefusal(error, row)) {
      await execute(sequelize, MARK_FAILED, [row.id]);
      throw error;
    }
    await execute(sequelize, STOP_ASKING, [row.id]);
    throw unconfirmed(payment, isAppError(error) ? error.message : 'no answer');
  });

  // The answer is recorded on its own first: money went out, whatever taking premium back then meets.
  await sequelize
    .transaction(async (transaction) => {
      await lockRefundablePayment(transaction, { paymentId: payment.paymentId });
      await recordAnswer(transaction, row.id, refund);
    })
    .catch(async () => {
      await execute(sequelize, STOP_ASKING, [row.id]).catch(() => undefined);
      throw unconfirmed(payment, `Razorpay made refund ${refund.id}, which could not be recorded yet`);
    });
  if (refund.status === 'processed') {
    await sequelize
      .transaction(async (transaction) => {
        await lockRefundablePayment(transaction, { paymentId: payment.paymentId });
        await applyProcessed(core, payment, refund, transaction);
      })
      .catch((error: unknown) => {
        throw AppError.unavailable(
          'REFUND_NOT_APPLIED',
          `Razorpay made refund ${refund.id} and it is recorded; its premium is taken back when Razorpay's ` +
            `refund.processed webhook comes (${isAppError(error) ? error.message : 'the database failed'})`,
        );
      });
  }
  return result(sequelize, payment, refund.id);
}

/** A refusal of a request that Razorpay may have made all the same: its refund, found by our receipt. */
async function madeAnyway(
  processor: RazorpayClient,
  payment: RefundablePayment,
  row: RefundRow,
): Promise<RazorpayRefund | undefined> {
  const refunds = await processor.fetchPaymentRefunds(payment.paymentId).catch(() => []);
  return refunds.find((refund) => refund.receipt === row.receipt);
}

/**
 * Razorpay refused the refund for good. Not a retry's "different request under the same idempotency
 * key" while its refund is not listed yet: Razorpay made that refund, and the next retry finds it.
 */
function isRefusal(error: unknown, row: RefundRow): boolean {
  if (!isAppError(error) || error.kind !== 'validation') return false;
  return !(row.resumed && /idempoten/i.test(error.message));
}

function unconfirmed(payment: RefundablePayment, why: string): AppError {
  return AppError.unavailable(
    'REFUND_UNCONFIRMED',
    `Razorpay did not confirm the refund of ${payment.paymentId} (${why}); ` +
      'run the same command again: it finds the refund if Razorpay made it, and refunds once',
  );
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

/** Step 2; a retry first looks for the refund at Razorpay, then asks again, as asked from then. */
async function askRazorpay(
  sequelize: Sequelize,
  processor: RazorpayClient,
  payment: RefundablePayment,
  row: RefundRow,
): Promise<RazorpayRefund> {
  if (row.resumed) {
    const made = (await processor.fetchPaymentRefunds(payment.paymentId)).find(
      (r) => r.receipt === row.receipt,
    );
    if (made) return made;
    await execute(sequelize, START_ASKING, [row.id]);
  }
  return processor.refundPayment(payment.paymentId, {
    amount: row.amount_paise,
    receipt: row.receipt,
    idempotencyKey: row.receipt,
    notes: { reason: row.reason.slice(0, 256), actor: row.actor.slice(0, 256) },
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
  const { invoicing } = await readSettings(core, transaction);
  await applyRefund(core.sequelize, entity, {
    transaction,
    invoicing,
    maxRevokesPerHour: core.config.maxRevokesPerHour,
  });
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
  sequelize: Sequelize,
  payment: RefundablePayment,
  refundId: string,
): Promise<RefundResult> {
  const [row] = await selectRows<{
    status: RefundStatus;
    days_taken: number;
    amount_paise: number;
    total: string;
  }>(sequelize, REFUND_RESULT, [refundId]);
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

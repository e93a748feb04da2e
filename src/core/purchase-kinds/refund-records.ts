import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import {
  ADD_DAYS_TAKEN,
  ADD_DAYS_TAKEN_TO_LATEST,
  DAYS_TAKEN,
  INSERT_PROCESSED,
  MARK_PROCESSED,
  PROCESSED_TOTAL,
  REFUND_ROW_OF,
  REFUNDED_PAYMENT_OF,
} from './refund-sql';

/** A refund Razorpay says it processed (its webhook, or its answer to our request). */
export interface ProcessedRefundEntity {
  refundId: string;
  paymentId: string;
  /** This refund, in paise; unknown for refunds the reconciler found. */
  amountPaise: number;
  /** Ours when we asked for it: names the row written before Razorpay was asked. */
  receipt: string | null;
}

export interface RecordedRefund {
  rowId: number;
  /** It was already recorded processed: its premium is settled, nothing more to do. */
  alreadyApplied: boolean;
  /** Everything processed of the payment, this refund included, in paise. */
  refundedTotal: number;
  /** Who asked for it from our side (an operator), or null when it came from Razorpay's dashboard. */
  requestedBy: { actor: string; reason: string } | null;
}

/**
 * Writes a processed refund on its payment's row of `payment_refunds`: the row we wrote before asking
 * (found by refund id or receipt), or a new one for a refund made elsewhere. The payment's row (order or
 * charge) is locked by the caller, so the answer to our request and the webhook are recorded one after the
 * other and only the first applies it.
 */
export async function recordProcessedRefund(
  transaction: Transaction,
  refund: ProcessedRefundEntity,
): Promise<RecordedRefund> {
  const [existing] = await selectRows<{
    id: number;
    status: string;
    actor: string | null;
    reason: string | null;
  }>(transaction, REFUND_ROW_OF, [refund.refundId, refund.receipt]);
  let rowId: number;
  if (existing) {
    rowId = Number(existing.id);
    if (existing.status !== 'processed') {
      await execute(transaction, MARK_PROCESSED, [rowId, refund.refundId]);
    }
  } else {
    const [inserted] = await selectRows<{ id: number }>(transaction, INSERT_PROCESSED, [
      refund.refundId,
      refund.paymentId,
      refund.amountPaise,
    ]);
    rowId = Number(inserted!.id);
  }
  return {
    rowId,
    alreadyApplied: existing?.status === 'processed',
    refundedTotal: await processedTotalOf(transaction, refund.paymentId),
    requestedBy: existing?.actor ? { actor: existing.actor, reason: existing.reason ?? '' } : null,
  };
}

/** Everything processed of the payment's refunds, in paise. */
export async function processedTotalOf(transaction: Transaction, paymentId: string): Promise<number> {
  const [total] = await selectRows<{ paise: string }>(transaction, PROCESSED_TOTAL, [paymentId]);
  return Number(total!.paise);
}

/** The payment a `payment_refunds` row refunds. */
export async function refundedPaymentOf(
  transaction: Transaction,
  rowId: number,
): Promise<{ paymentId: string }> {
  const [row] = await selectRows<{ paymentId: string }>(transaction, REFUNDED_PAYMENT_OF, [rowId]);
  if (!row) throw AppError.notFound('REFUND_NOT_FOUND', `no refund row ${rowId}`);
  return row;
}

/** Premium days the payment's earlier refunds took back (a partial refund's share). */
export async function daysTakenByRefunds(transaction: Transaction, paymentId: string): Promise<number> {
  const [row] = await selectRows<{ days: string }>(transaction, DAYS_TAKEN, [paymentId]);
  return Number(row!.days);
}

/** Adds `days` to what the payment's latest processed refund took. */
export async function addDaysTakenToLatestRefund(
  transaction: Transaction,
  paymentId: string,
  days: number,
): Promise<void> {
  await execute(transaction, ADD_DAYS_TAKEN_TO_LATEST, [paymentId, days]);
}

/** Adds `days` to what refund row `rowId` took: a won dispute may have recorded days on it before. */
export async function recordDaysTaken(transaction: Transaction, rowId: number, days: number): Promise<void> {
  await execute(transaction, ADD_DAYS_TAKEN, [rowId, days]);
}

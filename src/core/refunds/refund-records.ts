import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { DisputeOwner } from '../disputes/history';

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
  owner: DisputeOwner,
  refund: ProcessedRefundEntity,
): Promise<RecordedRefund> {
  const [existing] = await selectRows<{
    id: number;
    status: string;
    actor: string | null;
    reason: string | null;
  }>(
    transaction,
    `SELECT id, status, actor, reason FROM payment_refunds
     WHERE refund_id = $1 OR (receipt IS NOT NULL AND receipt = $2) ORDER BY id LIMIT 1`,
    [refund.refundId, refund.receipt],
  );
  const [orderId, chargeId] = 'orderId' in owner ? [owner.orderId, null] : [null, owner.chargeId];
  let rowId: number;
  if (existing) {
    rowId = Number(existing.id);
    if (existing.status !== 'processed') {
      await execute(
        transaction,
        `UPDATE payment_refunds SET refund_id = $2, status = 'processed', processed_at = now() WHERE id = $1`,
        [rowId, refund.refundId],
      );
    }
  } else {
    const [inserted] = await selectRows<{ id: number }>(
      transaction,
      `INSERT INTO payment_refunds (refund_id, order_id, charge_id, payment_id, amount_paise, status, processed_at)
       VALUES ($1, $2, $3, $4, $5, 'processed', now()) RETURNING id`,
      [refund.refundId, orderId, chargeId, refund.paymentId, refund.amountPaise],
    );
    rowId = Number(inserted!.id);
  }
  const [total] = await selectRows<{ paise: string }>(
    transaction,
    `SELECT COALESCE(sum(amount_paise), 0) AS paise FROM payment_refunds
     WHERE payment_id = $1 AND status = 'processed'`,
    [refund.paymentId],
  );
  return {
    rowId,
    alreadyApplied: existing?.status === 'processed',
    refundedTotal: Number(total!.paise),
    requestedBy: existing?.actor ? { actor: existing.actor, reason: existing.reason ?? '' } : null,
  };
}

/** Premium days the payment's earlier refunds took back (a partial refund's share). */
export async function daysTakenByRefunds(transaction: Transaction, paymentId: string): Promise<number> {
  const [row] = await selectRows<{ days: string }>(
    transaction,
    `SELECT COALESCE(sum(days_taken), 0) AS days FROM payment_refunds WHERE payment_id = $1`,
    [paymentId],
  );
  return Number(row!.days);
}

export async function recordDaysTaken(transaction: Transaction, rowId: number, days: number): Promise<void> {
  await execute(transaction, 'UPDATE payment_refunds SET days_taken = $2 WHERE id = $1', [rowId, days]);
}

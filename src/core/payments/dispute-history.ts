import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { DisputeStatus } from '../models';

/** What a dispute is about: an order's payment, or a subscription charge's. */
export type DisputeOwner = { orderId: number } | { chargeId: number };

/**
 * The rule of a dispute that holds its payment's premium taken: opened and not settled (`open`,
 * `under_review`, or `closed` without a `won` or `lost`), as one such dispute alone would leave it. SQL over
 * `payment_disputes`.
 */
export const HOLDS_PREMIUM = "opened AND status IN ('open', 'under_review', 'closed')";

/** The owner as `payment_disputes` columns: order_id, charge_id. */
function ownerColumns(owner: DisputeOwner): [number | null, number | null] {
  return 'orderId' in owner ? [owner.orderId, null] : [null, owner.chargeId];
}

export interface DisputeProgress {
  /** The stage its deliveries so far reached. */
  status: DisputeStatus;
  /** Whether its `created` was applied (a `closed` one may or may not have been). */
  opened: boolean;
}

/** How far a dispute has come; null before its first delivery. */
export async function disputeProgressOf(
  transaction: Transaction,
  disputeId: string,
): Promise<DisputeProgress | null> {
  const [row] = await selectRows<DisputeProgress>(
    transaction,
    'SELECT status, opened FROM payment_disputes WHERE dispute_id = $1',
    [disputeId],
  );
  return row ?? null;
}

/** What Razorpay's dispute entity says besides its stage; a field a delivery lacks keeps what is known. */
export interface DisputeDetails {
  /** Paise disputed (the whole payment, or part of it). */
  amountPaise: number | null;
  amountDeductedPaise: number | null;
  reasonCode: string | null;
  phase: string | null;
  /** The last moment to answer it (the seller's desk lists open disputes by it). */
  respondBy: Date | null;
}

export async function recordDisputeProgress(
  transaction: Transaction,
  owner: DisputeOwner,
  disputeId: string,
  { status, opened }: DisputeProgress,
  details: DisputeDetails,
): Promise<void> {
  await execute(
    transaction,
    `INSERT INTO payment_disputes (dispute_id, order_id, charge_id, status, opened,
                                   amount_paise, amount_deducted_paise, reason_code, phase, respond_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (dispute_id) DO UPDATE
     SET status = EXCLUDED.status, opened = payment_disputes.opened OR EXCLUDED.opened, updated_at = now(),
       amount_paise = COALESCE(EXCLUDED.amount_paise, payment_disputes.amount_paise),
       amount_deducted_paise = COALESCE(EXCLUDED.amount_deducted_paise, payment_disputes.amount_deducted_paise),
       reason_code = COALESCE(EXCLUDED.reason_code, payment_disputes.reason_code),
       phase = COALESCE(EXCLUDED.phase, payment_disputes.phase),
       respond_by = COALESCE(EXCLUDED.respond_by, payment_disputes.respond_by)`,
    [
      disputeId,
      ...ownerColumns(owner),
      status,
      opened,
      details.amountPaise,
      details.amountDeductedPaise,
      details.reasonCode,
      details.phase,
      details.respondBy,
    ],
  );
}

/** Whether a dispute of the payment other than `disputeId` holds its premium taken (HOLDS_PREMIUM). */
export async function anotherDisputeHolds(
  transaction: Transaction,
  owner: DisputeOwner,
  disputeId: string,
): Promise<boolean> {
  const [row] = await selectRows(
    transaction,
    `SELECT 1 FROM payment_disputes
     WHERE (order_id = $1 OR charge_id = $2) AND dispute_id <> $3
       AND ${HOLDS_PREMIUM}
     LIMIT 1`,
    [...ownerColumns(owner), disputeId],
  );
  return row !== undefined;
}

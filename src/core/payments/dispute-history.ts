import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { DisputeStatus } from '../models';

/** What a dispute is about: an order's payment, or a subscription charge's. */
export type DisputeOwner = { orderId: number } | { chargeId: number };

/**
 * The rule of a dispute that holds its payment's premium taken: opened and not settled (`open`, or
 * `closed` without a `won` or `lost`), as one such dispute alone would leave it. SQL over
 * `payment_disputes`.
 */
export const HOLDS_PREMIUM = "opened AND status IN ('open', 'closed')";

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

export async function recordDisputeProgress(
  transaction: Transaction,
  owner: DisputeOwner,
  disputeId: string,
  { status, opened }: DisputeProgress,
): Promise<void> {
  await execute(
    transaction,
    `INSERT INTO payment_disputes (dispute_id, order_id, charge_id, status, opened) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (dispute_id) DO UPDATE
     SET status = EXCLUDED.status, opened = payment_disputes.opened OR EXCLUDED.opened, updated_at = now()`,
    [disputeId, ...ownerColumns(owner), status, opened],
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

/** A dispute's amount (paise) and Razorpay's `respond_by`, as its latest delivery said them. */
export interface DisputeTerms {
  amountPaise: number | null;
  respondBy: Date | null;
}

/** Keeps what a delivery said of the dispute's terms; what it left out stays as an earlier one said. */
export async function recordDisputeTerms(
  transaction: Transaction,
  disputeId: string,
  { amountPaise, respondBy }: DisputeTerms,
): Promise<void> {
  await execute(
    transaction,
    `UPDATE payment_disputes
     SET amount_paise = COALESCE($2, amount_paise), respond_by = COALESCE($3, respond_by)
     WHERE dispute_id = $1`,
    [disputeId, amountPaise, respondBy],
  );
}

/**
 * Every raw SQL string of the disputes (README.md for the words). `payment_disputes` holds one row per
 * dispute: its owner (`order_id` or `charge_id`), its stage and what Razorpay said of it.
 */

/**
 * A dispute that keeps its payment's premium revoked: opened and not settled (`open`, `under_review`, or
 * `closed` without a `won` or `lost`), as one such dispute alone would leave it. A condition on
 * `payment_disputes`.
 */
export const DISPUTE_KEEPS_PREMIUM_REVOKED = "opened AND status IN ('open', 'under_review', 'closed')";

export const DISPUTE_PROGRESS_SQL = 'SELECT status, opened FROM payment_disputes WHERE dispute_id = $1';

/** $1 dispute id, $2 order id, $3 charge id, $4 status, $5 opened, $6–$10 the details. */
export const RECORD_DISPUTE_PROGRESS_SQL = `
INSERT INTO payment_disputes (dispute_id, order_id, charge_id, status, opened,
                              amount_paise, amount_deducted_paise, reason_code, phase, respond_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (dispute_id) DO UPDATE
SET status = EXCLUDED.status, opened = payment_disputes.opened OR EXCLUDED.opened, updated_at = now(),
  amount_paise = COALESCE(EXCLUDED.amount_paise, payment_disputes.amount_paise),
  amount_deducted_paise = COALESCE(EXCLUDED.amount_deducted_paise, payment_disputes.amount_deducted_paise),
  reason_code = COALESCE(EXCLUDED.reason_code, payment_disputes.reason_code),
  phase = COALESCE(EXCLUDED.phase, payment_disputes.phase),
  respond_by = COALESCE(EXCLUDED.respond_by, payment_disputes.respond_by)`;

/** $1 order id, $2 charge id (one of them null), $3 the dispute to leave out. */
export const ANOTHER_DISPUTE_KEEPS_PREMIUM_REVOKED_SQL = `
SELECT 1 FROM payment_disputes
WHERE (order_id = $1 OR charge_id = $2) AND dispute_id <> $3
  AND ${DISPUTE_KEEPS_PREMIUM_REVOKED}
LIMIT 1`;

/** The grants that carry on the days of grants ($1) a transfer moved. */
export const MOVED_TO_SQL =
  'SELECT to_grant_id FROM premium_transfer_moves WHERE from_grant_id = ANY($1::bigint[])';

/* A payment's refunds, as rows of `payment_refunds` (refund-records.ts). */

/**
 * The row of refund $1, or the row we wrote with receipt $2 that names no refund yet: a second refund made
 * under one receipt is a refund of its own, never taken for the first.
 */
export const REFUND_ROW_OF = `
  SELECT id, status, actor, reason FROM payment_refunds
  WHERE refund_id = $1 OR (refund_id IS NULL AND receipt = $2) ORDER BY refund_id IS NULL, id LIMIT 1`;

export const MARK_PROCESSED = `UPDATE payment_refunds SET refund_id = $2, status = 'processed', processed_at = now() WHERE id = $1`;

/** A processed refund made elsewhere (the dashboard), first seen processed. */
export const INSERT_PROCESSED = `
  INSERT INTO payment_refunds (refund_id, payment_id, amount_paise, status, processed_at)
  VALUES ($1, $2, $3, 'processed', now()) RETURNING id`;

/** Everything processed of payment $1, in paise. */
export const PROCESSED_TOTAL = `
  SELECT COALESCE(sum(amount_paise), 0) AS paise FROM payment_refunds
  WHERE payment_id = $1 AND status = 'processed'`;

export const REFUNDED_PAYMENT_OF = `SELECT payment_id AS "paymentId" FROM payment_refunds WHERE id = $1`;

export const DAYS_TAKEN = `SELECT COALESCE(sum(days_taken), 0) AS days FROM payment_refunds WHERE payment_id = $1`;

export const ADD_DAYS_TAKEN_TO_LATEST = `
  UPDATE payment_refunds SET days_taken = days_taken + $2
  WHERE id = (SELECT max(id) FROM payment_refunds WHERE payment_id = $1 AND status = 'processed')`;

export const ADD_DAYS_TAKEN = 'UPDATE payment_refunds SET days_taken = days_taken + $2 WHERE id = $1';

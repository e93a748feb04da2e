/** The seller's notices' raw SQL: they wait in the work queue (docs/jobs.md) as jobs of one kind. */

/** The jobs' kind of the seller's notices. */
export const NOTICE_JOB = 'seller_notice';

/**
 * The condition of an order's sale notice and receipt, its order $5: this very transaction marked the order paid
 * (its `paid_at` is the transaction's `now()`). The paid-and-grant transaction sends it behind its grant
 * without waiting for the grant's answer, and a replayed payment must not tell the seller twice.
 */
export const ORDER_PAID_NOW = 'EXISTS (SELECT 1 FROM orders WHERE id = $5::bigint AND paid_at = now())';

/** The refunds' raw SQL: rows of `payment_refunds`, and the payment a refund is for. */

const lockOrderBy = (column: string) => `
  SELECT processor_order_id, payment_id, amount_paise, status FROM orders
  WHERE ${column} = $1 FOR UPDATE`;

/** The order with Razorpay order id $1, locked. */
export const LOCK_ORDER_BY_ID = lockOrderBy('processor_order_id');

/** The order payment $1 paid, locked. */
export const LOCK_ORDER_PAID_BY = lockOrderBy('payment_id');

/** The subscription charge payment $1 paid, locked with its subscription. */
export const LOCK_CHARGE_PAID_BY = `
  SELECT c.payment_id, c.amount_paise, c.status, s.processor_subscription_id
  FROM subscription_charges c JOIN subscriptions s ON s.id = c.subscription_id
  WHERE c.payment_id = $1 FOR UPDATE OF s, c`;

export const MARK_FAILED = `UPDATE payment_refunds SET status = 'failed' WHERE id = $1`;

/** Razorpay's answer to refund row $1, unless the webhook recorded it first. */
export const RECORD_ANSWER = `
  UPDATE payment_refunds SET refund_id = $2, status = $3 WHERE id = $1 AND status = 'requested' RETURNING id`;

/** A refund Razorpay answered with ($2, status $3) that row $1 does not name: a row of its own, as asked. */
export const INSERT_ANSWERED = `
  INSERT INTO payment_refunds (refund_id, payment_id, amount_paise, status, reason, actor)
  SELECT $2, payment_id, $4, $3, reason, actor FROM payment_refunds WHERE id = $1
  ON CONFLICT (refund_id) DO NOTHING`;

/** The refund row idempotency key $1 asked for. */
export const REFUND_BY_KEY = `
  SELECT r.id, r.payment_id AS "paymentId", r.amount_paise, r.receipt, r.reason, r.actor, r.status,
         r.refund_id AS "refundId"
  FROM payment_refund_keys k JOIN payment_refunds r ON r.id = k.refund_row_id WHERE k.idempotency_key = $1`;

/** Names refund row $2 under idempotency key $1, unless the key names a row already. */
export const INSERT_KEY = `
  INSERT INTO payment_refund_keys (idempotency_key, refund_row_id) VALUES ($1, $2)
  ON CONFLICT (idempotency_key) DO NOTHING RETURNING refund_row_id`;

/** Refund row $1 is being asked of Razorpay from now. */
export const START_ASKING = 'UPDATE payment_refunds SET asked_at = clock_timestamp() WHERE id = $1';

/** No one asks Razorpay for refund row $1 any more: the next refund of its payment may take it over. */
export const STOP_ASKING = `UPDATE payment_refunds SET asked_at = NULL WHERE id = $1 AND status = 'requested'`;

/**
 * The refund of payment $1 we asked for whose answer has not come; whether Razorpay was asked for it within
 * the last $2 seconds (`asking`: its asker is still waiting for the answer); and what of the payment's $3
 * paise was left to refund when it was asked (`leftWithIt`).
 */
export const UNCONFIRMED_REFUND = `
  SELECT r.id, r.receipt, r.amount_paise, r.reason, r.actor,
         COALESCE(r.asked_at > clock_timestamp() - make_interval(secs => $2), false) AS asking,
         $3 - (SELECT COALESCE(sum(o.amount_paise), 0) FROM payment_refunds o
               WHERE o.payment_id = r.payment_id AND o.status <> 'failed' AND o.id <> r.id) AS "leftWithIt"
  FROM payment_refunds r WHERE r.payment_id = $1 AND r.status = 'requested'`;

/** What of payment $1 is refunded or asked for, and how many refunds it had. */
export const REFUNDED_SO_FAR = `
  SELECT COALESCE(sum(amount_paise) FILTER (WHERE status <> 'failed'), 0) AS paise, count(*) AS count
  FROM payment_refunds WHERE payment_id = $1`;

/** A refund written down before Razorpay is asked, and asked from now. */
export const INSERT_REQUESTED = `
  INSERT INTO payment_refunds (payment_id, amount_paise, status, receipt, reason, actor, asked_at)
  VALUES ($1, $2, 'requested', $3, $4, $5, clock_timestamp()) RETURNING id`;

/** Everything processed of payment $1, with refund $2, in paise. */
export const PROCESSED_TOTAL_WITH = `
  SELECT COALESCE(sum(amount_paise), 0) AS paise FROM payment_refunds
  WHERE payment_id = $1 AND (status = 'processed' OR refund_id = $2)`;

/** Refund $1's status and the days it took, and what its payment has refunded in all. */
export const REFUND_RESULT = `
  SELECT r.status, r.days_taken, r.amount_paise,
    (SELECT COALESCE(sum(amount_paise), 0) FROM payment_refunds
     WHERE payment_id = r.payment_id AND status IN ('pending', 'processed')) AS total
  FROM payment_refunds r WHERE r.refund_id = $1`;

/** The latest refund of payment $1 for $2 paise asked within $3 minutes, not failed. */
export const SAME_REFUND_SINCE = `
  SELECT refund_id AS "refundId", amount_paise AS "amountPaise", actor,
         floor(extract(epoch FROM now() - created_at) / 60)::int AS "minutesAgo"
  FROM payment_refunds
  WHERE payment_id = $1 AND amount_paise = $2 AND status <> 'failed'
    AND created_at > now() - make_interval(mins => $3)
  ORDER BY id DESC LIMIT 1`;

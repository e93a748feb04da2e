/**
 * The raw SQL of core/orders, in one place (issue 23: Sequelize models for plain reads and writes,
 * every raw statement of an area beside it in sql.ts). Statements take `$n` bind parameters.
 */

/** Buyer `$1`'s unpaid orders created after `$2`: how many, and the oldest's creation. */
export const OPEN_ORDERS_SINCE = `SELECT count(*)::int AS count, min(created_at) AS oldest FROM orders
     WHERE buyer_user_id = $1 AND status = 'created' AND created_at > $2`;

export const DELETE_LAPSED_RESERVATIONS =
  'DELETE FROM order_reservations WHERE buyer_user_id = $1 AND lease_until <= now()';

/** Reservation `$1` of buyer `$2` for target `$3`, for `$4` milliseconds. */
export const INSERT_RESERVATION = `INSERT INTO order_reservations (receipt, buyer_user_id, target, lease_until)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')`;

/** A row when buyer `$1` holds a live reservation for target `$2`. */
export const TARGET_RESERVED = `SELECT 1 FROM order_reservations
     WHERE buyer_user_id = $1 AND target = $2 AND lease_until > now() LIMIT 1`;

/** Buyer `$1`'s live reservations: how many, and when the first lease ends. */
export const LIVE_RESERVATIONS = `SELECT count(*)::int AS count, min(lease_until) AS "firstEnds"
     FROM order_reservations WHERE buyer_user_id = $1 AND lease_until > now()`;

export const DELETE_RESERVATION = 'DELETE FROM order_reservations WHERE receipt = $1';

/** The refund check (src/core/reconcile) looked at paid order `$1` now. */
export const MARK_REFUND_CHECKED = 'UPDATE orders SET refund_checked_at = now() WHERE id = $1';

/**
 * Marks order `$11` paid by payment `$15` within the grant statement of what it bought (premium/grant-sql.ts's
 * grantSql takes it as a CTE, with the grant's parameters): only once the grant extended the record
 * (`after`), and only an order still unpaid.
 */
/** An order paid whose premium is no grant of its own (a bundle, bound to guilds later; a gift's code). */
export const ORDER_PAID_WITHOUT_GRANT = `UPDATE orders SET status = 'paid', payment_id = $2::text, paid_at = now(), next_check_at = NULL, updated_at = now()
    WHERE id = $1::bigint AND status = 'created' RETURNING id`;

export const ORDER_PAID_WITH_GRANT = `UPDATE orders SET status = 'paid', payment_id = $15::text, paid_at = now(), next_check_at = NULL, updated_at = now()
    WHERE id = $11::bigint AND $15::text IS NOT NULL AND status = 'created' AND EXISTS (SELECT 1 FROM after)`;

/**
 * Order $1 paid by payment $2 and refused (why: $3), never granted: its refund follows at once. Paid, so
 * that the refund finds the payment and the reconciler stops asking; `refused_code` keeps it from any grant.
 */
export const ORDER_PAID_REFUSED = `UPDATE orders SET status = 'paid', payment_id = $2::text, paid_at = now(), next_check_at = NULL,
    refused_code = $3::text, updated_at = now()
    WHERE id = $1::bigint AND status = 'created' RETURNING id`;

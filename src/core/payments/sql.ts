/**
 * The raw SQL of core/payments, in one place (issue 23: Sequelize models for plain reads and writes,
 * every raw statement of an area beside it in sql.ts). Statements take `$n` bind parameters.
 */

/**
 * A dispute that keeps its payment's premium revoked: opened and not settled (`open`, `under_review`, or
 * `closed` without a `won` or `lost`), as one such dispute alone would leave it. A condition on
 * `payment_disputes`, here because the payment path asks it (ORDER_CHARGED_BACK) and disputes sit
 * above payments (src/core/README.md).
 */
export const DISPUTE_KEEPS_PREMIUM_REVOKED = "opened AND status IN ('open', 'under_review', 'closed')";

/**
 * Locks order $1 for the rest of the transaction, with its buyer (apply-payment) and billing (its
 * invoice), and whether its offer's hold ($2, OFFER_HOLD_MINUTES) lapsed: its payment is then judged again.
 */
export const LOCK_PAYABLE_ORDER = `SELECT o.id, o.processor_order_id AS "processorOrderId", o.category, o.guild_id AS "guildId",
           o.plan_type AS "planType", o.months, o.duration_days AS "durationDays", o.tier, o.slots,
           o.amount_paise AS "amountPaise", o.currency, o.status, o.payment_id AS "paymentId",
           o.dispute_id AS "disputeId", o.refunded_payment_ids AS "refundedPaymentIds",
           o.billing_state_code AS "billingStateCode", o.billing_gstin AS "billingGstin",
           o.billing_name AS "billingName", o.billing_address AS "billingAddress",
           o.billing_pincode AS "billingPincode", o.billing_country AS "billingCountry", o.buyer_user_id AS "buyerUserId",
           u.provider_id AS "buyerProviderId", u.username AS "buyerUsername",
           (SELECT g.name FROM user_guilds g WHERE g.user_id = o.buyer_user_id AND g.guild_id = o.guild_id)
             AS "guildName",
           o.receipt, o.offer_id AS "offerId", o.refused_code AS "refusedCode",
           o.upgrade_from_tier AS "upgradeFromTier", o.gift,
           (o.offer_id IS NOT NULL AND o.created_at <= now() - $2::interval) AS "holdLapsed"
         FROM orders o JOIN users u ON u.id = o.buyer_user_id
         WHERE o.processor_order_id = $1 FOR UPDATE OF o`;

/** A row when a dispute of order `$1`'s payment was lost or holds its premium taken. */
export const ORDER_CHARGED_BACK = `SELECT 1 FROM payment_disputes
  WHERE payment_id = (SELECT payment_id FROM payments WHERE order_id = $1)
    AND (status = 'lost' OR ${DISPUTE_KEEPS_PREMIUM_REVOKED}) LIMIT 1`;

/** Refunds of payments older than this are left to the webhook and to operators. */
const REFUND_CHECK_WINDOW = '30 days';

/**
 * Recently paid orders due for a refund check, at most `$1`, those never checked first. An order is
 * checked again once the time since its last check is half its age at that check (at least an hour):
 * often while it is new, rarely once old: under twenty calls per order over the whole window.
 */
export const DUE_PAID_ORDERS = `
  SELECT id FROM orders
  WHERE status = 'paid' AND paid_at >= now() - interval '${REFUND_CHECK_WINDOW}'
    AND (refund_checked_at IS NULL
         OR refund_checked_at < now() - GREATEST(interval '1 hour', (refund_checked_at - paid_at) / 2))
  ORDER BY refund_checked_at NULLS FIRST, paid_at
  LIMIT $1`;

/**
 * The reconciler's keyset over unpaid orders (Sequelize literals on the `Order` model): the next check
 * as PostgreSQL's text, to the microsecond (a Date's milliseconds would keep a row after itself, and a
 * run would take an order it could not check again and again), and the key compared with the last row's.
 */
export const ORDER_CHECK_KEY_TIME = '"Order"."next_check_at"::text';
export const ORDER_CHECK_KEY = '("Order"."next_check_at", "Order"."id")';
export const orderCheckKeyOf = (escapedKeyTime: string, id: number) =>
  `(${escapedKeyTime}::timestamptz, ${id})`;

/** What recorded payment $1 (docs/payments.md) came from: its order's or its charge's id. */
export const PAYMENT_SOURCE = `SELECT source, kind, COALESCE(order_id, charge_id) AS "sourceId" FROM payments WHERE payment_id = $1`;

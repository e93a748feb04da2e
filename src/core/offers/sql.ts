/** The offers' raw SQL (migration 029). */

const OFFER_COLUMNS = `o.id, o.code, o.percent_off AS "percentOff", o.amount_off_paise AS "amountOffPaise",
  o.plan_codes AS "planCodes", o.starts_at AS "startsAt", o.ends_at AS "endsAt",
  o.max_redemptions AS "maxRedemptions", o.first_purchase_only AS "firstPurchaseOnly", o.status,
  o.actor, o.created_at AS "createdAt", o.max_discount_paise AS "maxDiscountPaise"`;

/**
 * A redemption that counts against its offer's caps: its order is paid (whatever happened after: a
 * refunded order keeps it), or its order (the redemption itself while Razorpay creates the order) is
 * younger than the hold $n, OFFER_HOLD_MINUTES: the order may still be paid. Others gave theirs back by
 * ageing; a payment that comes for one later is judged again (LOCK_OFFER_BY_ID). `r` is the redemption,
 * `paid` its order.
 */
export const counts = (hold: string) =>
  `(paid.paid_at IS NOT NULL OR COALESCE(paid.created_at, r.created_at) > now() - ${hold}::interval)`;

const REDEMPTIONS = (hold: string) => `
  SELECT r.*, ${counts(hold)} AS counts, paid.paid_at IS NOT NULL AS paid, paid.amount_paise AS order_amount_paise
  FROM offer_redemptions r LEFT JOIN orders paid ON paid.receipt = r.receipt`;

/**
 * An offer's figures (hold $n), one pass over its redemptions as `f`: those that count against its caps,
 * and of its paid orders their number, the discount they got and what they paid.
 */
const FIGURES = (hold: string) => `CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE x.counts)::int AS "redemptions",
      count(*) FILTER (WHERE x.paid)::int AS "paidRedemptions",
      COALESCE(sum(x.discount_paise) FILTER (WHERE x.paid), 0)::bigint AS "discountGivenPaise",
      COALESCE(sum(x.order_amount_paise) FILTER (WHERE x.paid), 0)::bigint AS "paidPaise"
    FROM (${REDEMPTIONS(hold)}) x WHERE x.offer_id = o.id) f`;

export const INSERT_OFFER = `INSERT INTO offers (code, percent_off, amount_off_paise, plan_codes, starts_at, ends_at,
    max_redemptions, first_purchase_only, actor, max_discount_paise)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`;

/** Offer $1 by code, with what its redemptions count (hold $2) and what its paid orders got and paid. */
export const OFFER_BY_CODE = `SELECT ${OFFER_COLUMNS}, f.*
  FROM offers o ${FIGURES('$2')} WHERE o.code = $1`;

export const LIST_OFFERS = `SELECT ${OFFER_COLUMNS}, f.*
  FROM offers o ${FIGURES('$1')} ORDER BY o.created_at DESC, o.id DESC`;

/** Offer $1 locked: every reservation of one offer runs one at a time, so no cap is ever passed. */
export const LOCK_OFFER = `SELECT ${OFFER_COLUMNS} FROM offers o WHERE o.code = $1 FOR UPDATE`;

/** Offer $1 locked, by id: what a late payment of an order with it is judged by. */
export const LOCK_OFFER_BY_ID = `SELECT ${OFFER_COLUMNS} FROM offers o WHERE o.id = $1 FOR UPDATE`;

/** Redemptions of offer $1 that count (hold $2): all of them, buyer $3's, and buyer $3's paid ones. */
export const COUNTED_REDEMPTIONS = `SELECT count(*)::int AS "all", count(*) FILTER (WHERE x.buyer_user_id = $3)::int AS "buyers",
    count(*) FILTER (WHERE x.buyer_user_id = $3 AND x.paid)::int AS "buyersPaid"
  FROM (${REDEMPTIONS('$2')}) x WHERE x.offer_id = $1 AND x.counts`;

/** Whether buyer $1 ever paid: an order (not one refused and refunded) or a subscription charge. */
export const HAS_PAID = `SELECT EXISTS (SELECT 1 FROM orders WHERE buyer_user_id = $1 AND paid_at IS NOT NULL AND refused_code IS NULL)
  OR EXISTS (SELECT 1 FROM subscriptions WHERE buyer_user_id = $1 AND paid_count > 0) AS paid`;

export const INSERT_REDEMPTION = `INSERT INTO offer_redemptions (offer_id, buyer_user_id, receipt, list_price_paise, discount_paise)
  VALUES ($1, $2, $3, $4, $5)`;

export const DELETE_REDEMPTION = `DELETE FROM offer_redemptions WHERE receipt = $1`;

export const DISABLE_OFFER = `UPDATE offers SET status = 'disabled', updated_at = now() WHERE code = $1 AND status = 'active'
  RETURNING id`;

export const KNOWN_PLANS = `SELECT code FROM plans WHERE code = ANY($1)`;

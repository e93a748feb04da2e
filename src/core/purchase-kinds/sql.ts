/** The raw SQL of the purchase kinds: a gift's code, found by the payment that bought it (docs/codes.md). */

/** The code payment $1 bought, locked against its redemption; none when the payment made no code yet. */
export const LOCK_GIFT_CODE = 'SELECT id FROM premium_codes WHERE payment_id = $1 FOR UPDATE';

/**
 * Code $1's redemption: its grant and where and for whom it went (the grant's user, by their Discord id).
 * Read after the lock, by a statement of its own: a locking read that waited on a redemption sees the
 * code's new grant_id but joins the grant as it was before (none), so it cannot say where the days went.
 */
export const GIFT_CODE_REDEMPTION = `
  SELECT c.id, c.grant_id AS "grantId", g.category, g.guild_id AS "guildId", u.provider_id AS "providerId"
  FROM premium_codes c
    LEFT JOIN premium_grants g ON g.id = c.grant_id
    LEFT JOIN users u ON u.id = g.user_id
  WHERE c.id = $1`;

/**
 * Code $1 withdrawn, by $2 for $3 (a refund's actor): redeeming it is refused (CODE_REVOKED).
 */
export const WITHDRAW_GIFT_CODE =
  'UPDATE premium_codes SET revoked_at = now(), revoked_by = $2, revoke_reason = $3 WHERE id = $1';

/**
 * Code $1 withdrawn by dispute revoke $2 (its key) for $3, unless withdrawn already: a refund's or an
 * operator's withdrawal is never relabelled as the dispute's, which a won dispute gives back.
 */
export const HOLD_GIFT_CODE = `${WITHDRAW_GIFT_CODE} AND revoked_at IS NULL`;

/**
 * Code $1 given back when one of dispute revokes $2 (their keys: the payment's disputes, the last of them
 * won) withdrew it, and nothing since.
 */
export const GIVE_BACK_GIFT_CODE = `
  UPDATE premium_codes SET revoked_at = NULL, revoked_by = NULL, revoke_reason = NULL
  WHERE id = $1 AND revoked_by = ANY($2::text[])`;
/**
 * The gift code of payment $1 (docs/codes.md), made with a batch of its own unless the payment made one
 * already: $2–$5 the plan (type, months, days, tier), $6 the actor, $7 the reason, $8 the code's SHA-256
 * and $9 the code. Never expires: it was paid for. Answers the code the payment has, new or not (the last
 * SELECT sees only rows from before the statement, so exactly one row comes back).
 */
export const MAKE_GIFT_CODE = `
  WITH batch AS (
    INSERT INTO premium_code_batches (plan_type, months, duration_days, tier, expires_at, actor, reason)
    SELECT $2, $3, $4, $5, NULL, $6, $7
    WHERE NOT EXISTS (SELECT 1 FROM premium_codes WHERE payment_id = $1)
    RETURNING id),
  made AS (
    INSERT INTO premium_codes (batch_id, code_sha256, payment_id, code)
    SELECT id, $8, $1, $9 FROM batch RETURNING id, code)
  SELECT id AS "codeId", code FROM made
  UNION ALL SELECT id, code FROM premium_codes WHERE payment_id = $1`;

/** The orders of the gift codes redeemed with one of grants $1: a gift's order pays for its redemption's grant. */
export const GIFT_ORDERS_REDEEMED_WITH = `
  SELECT p.order_id AS "orderId"
  FROM premium_codes c JOIN payments p ON p.payment_id = c.payment_id
  WHERE c.grant_id = ANY($1::bigint[]) AND p.order_id IS NOT NULL`;

/** The codes' raw SQL. Plain reads and writes of one row go through the models instead. */

export const INSERT_BATCH = `
  INSERT INTO premium_code_batches (plan_type, months, duration_days, tier, expires_at, actor, reason)
  VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`;

/** $1: the batch, $2: the codes' SHA-256s. */
export const INSERT_CODES = `
  INSERT INTO premium_codes (batch_id, code_sha256) SELECT $1, unnest($2::text[])
  RETURNING id, code_sha256`;

/** Every code with its status as an operator sees it, to be filtered by `where` and limited. */
export function listCodes(where: string, limit: string): string {
  return `
  SELECT * FROM (
    SELECT c.id AS "codeId", c.batch_id AS "batchId",
           CASE WHEN c.redeemed_at IS NOT NULL THEN 'redeemed' WHEN c.revoked_at IS NOT NULL THEN 'revoked'
                WHEN b.expires_at <= now() THEN 'expired' ELSE 'unused' END AS status,
           b.plan_type AS "planType", b.months, b.duration_days AS "durationDays",
           b.expires_at AS "expiresAt", b.created_at AS "createdAt", b.reason,
           c.redeemed_at AS "redeemedAt", u.provider_id AS "redeemedBy", c.grant_id AS "grantId",
           c.revoked_at AS "revokedAt", c.revoke_reason AS "revokeReason",
           c.payment_id AS "paymentId", buyer.provider_id AS "boughtBy"
    FROM premium_codes c
    JOIN premium_code_batches b ON b.id = c.batch_id
    LEFT JOIN users u ON u.id = c.redeemed_by_user_id
    LEFT JOIN payments p ON p.payment_id = c.payment_id
    LEFT JOIN users buyer ON buyer.id = p.buyer_user_id) codes
  ${where}
  ORDER BY "codeId" DESC
  LIMIT ${limit}`;
}

/** $1: the code's SHA-256. Who redeemed it counts as "just now" within `replayMinutes`. */
export function lockCode(replayMinutes: number): string {
  return `
  SELECT c.id, b.plan_type AS "planType", b.months, b.duration_days AS "durationDays", b.tier,
         c.redeemed_at IS NOT NULL AS redeemed,
         CASE WHEN c.redeemed_at > now() - make_interval(mins => ${replayMinutes})
           THEN c.redeemed_by_user_id END AS "redeemedJustNowBy",
         g.guild_id AS "redeemedForGuildId",
         c.revoked_at IS NOT NULL AS revoked, coalesce(b.expires_at <= now(), false) AS expired
  FROM premium_codes c JOIN premium_code_batches b ON b.id = c.batch_id
    LEFT JOIN premium_grants g ON g.id = c.grant_id
  WHERE c.code_sha256 = $1
  FOR UPDATE OF c`;
}

/** $1: the code, $2: the user who redeemed it, $3: the ledger row of the grant. */
export const MARK_REDEEMED =
  'UPDATE premium_codes SET redeemed_at = now(), redeemed_by_user_id = $2, grant_id = $3 WHERE id = $1';

/** $1: code ids, $2: a batch id: the codes of either, locked. */
export const LOCK_CODES_TO_REVOKE = `
  SELECT id, redeemed_at IS NOT NULL AS redeemed, revoked_at IS NOT NULL AS revoked
  FROM premium_codes WHERE id = ANY($1::bigint[]) OR batch_id = $2
  ORDER BY id FOR UPDATE`;

export const REVOKE_CODES =
  'UPDATE premium_codes SET revoked_at = now(), revoked_by = $2, revoke_reason = $3 WHERE id = ANY($1::bigint[])';

/**
 * The gift codes user $1 (a Discord id) bought (docs/codes.md), newest first, at most $2: each with its
 * order, its plan and its state, and who redeemed it by the name their sign-in gave.
 */
export const GIFTS_BOUGHT = `
  SELECT c.id AS "codeId", c.code, o.processor_order_id AS "orderId", p.paid_at AS "boughtAt",
         b.plan_type AS "planType", b.tier, b.duration_days AS "days",
         CASE WHEN c.redeemed_at IS NOT NULL THEN 'redeemed' WHEN c.revoked_at IS NOT NULL THEN 'revoked'
              ELSE 'unused' END AS status,
         c.redeemed_at AS "redeemedAt", r.username AS "redeemedBy"
  FROM users buyer
    JOIN payments p ON p.buyer_user_id = buyer.id AND p.kind = 'gift'
    JOIN premium_codes c ON c.payment_id = p.payment_id
    JOIN premium_code_batches b ON b.id = c.batch_id
    JOIN orders o ON o.id = p.order_id
    LEFT JOIN users r ON r.id = c.redeemed_by_user_id
  WHERE buyer.provider_id = $1
  ORDER BY c.id DESC
  LIMIT $2`;

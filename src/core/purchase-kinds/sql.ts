/** The raw SQL of the purchase kinds: a gift's code, found by the payment that bought it (docs/codes.md). */

/**
 * The code payment $1 bought, locked against its redemption, with the redemption's grant and where and for
 * whom it went (the grant's user, by their Discord id); none when the payment made no code yet.
 */
export const LOCK_GIFT_CODE = `
  SELECT c.id, c.grant_id AS "grantId", g.category, g.guild_id AS "guildId", u.provider_id AS "providerId"
  FROM premium_codes c
    LEFT JOIN premium_grants g ON g.id = c.grant_id
    LEFT JOIN users u ON u.id = g.user_id
  WHERE c.payment_id = $1
  FOR UPDATE OF c`;

/**
 * Code $1 withdrawn, by $2 for $3 (a refund's actor, or a dispute revoke's key): redeeming it is refused
 * (CODE_REVOKED).
 */
export const WITHDRAW_GIFT_CODE =
  'UPDATE premium_codes SET revoked_at = now(), revoked_by = $2, revoke_reason = $3 WHERE id = $1';

/** Code $1 given back when dispute revoke $2 (its key: the dispute is won) withdrew it, and nothing since. */
export const GIVE_BACK_GIFT_CODE = `
  UPDATE premium_codes SET revoked_at = NULL, revoked_by = NULL, revoke_reason = NULL
  WHERE id = $1 AND revoked_by = $2`;

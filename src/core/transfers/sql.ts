/** The transfers' raw SQL. Plain reads and writes of one row go through the models instead. */

export const INSERT_TRANSFER = `
  INSERT INTO premium_transfers
    (idempotency_key, from_guild_id, to_guild_id, user_id, actor, reason, days, remove_grant_id, add_grant_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`;

/** $1: the transfer, $2 and $3: the grants moved and the grants they became, pairwise. */
export const INSERT_MOVES = `
  INSERT INTO premium_transfer_moves (transfer_id, from_grant_id, to_grant_id)
  SELECT $1, unnest($2::bigint[]), unnest($3::bigint[])`;

/** Guild $1's live record, locked. */
export const LOCK_SOURCE_RECORD = `
  SELECT expires_at AS "expiresAt", buyer_user_id AS "buyerUserId"
  FROM server_premiums WHERE guild_id = $1 AND version > 0 AND expires_at > now()
  FOR UPDATE`;

/** Whether user $1 holds a grant for guild $2 that no revoke took back. */
export const UNREVOKED_GRANT_OF = `
  SELECT 1 FROM premium_grants g
  WHERE g.user_id = $1 AND g.guild_id = $2 AND g.kind = 'grant'
    AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
  LIMIT 1`;

/** When the cooldown of $2 days after the last transfer from or to guild $1 ends. */
export const COOLDOWN_OF = `
  SELECT max(created_at) + make_interval(days => $2) AS "endsAt",
         max(created_at) + make_interval(days => $2) > now() AS cooling
  FROM premium_transfers WHERE from_guild_id = $1 OR to_guild_id = $1`;

/** The transfer idempotency key $1 made. */
export const TRANSFER_BY_KEY = `
  SELECT t.id AS "transferId", t.from_guild_id AS "fromGuildId", t.to_guild_id AS "toGuildId", t.days,
         removed.expires_after AS "fromExpiresAt", added.expires_after AS "toExpiresAt",
         t.remove_grant_id AS "removeGrantId", t.add_grant_id AS "addGrantId",
         u.provider_id AS "providerId", t.created_at AS "createdAt"
  FROM premium_transfers t
  JOIN premium_grants removed ON removed.id = t.remove_grant_id
  JOIN premium_grants added ON added.id = t.add_grant_id
  JOIN users u ON u.id = t.user_id
  WHERE t.idempotency_key = $1`;

/** Sign-in's raw SQL: the user and their manageable guilds as Discord says they are now. */

/** Creates or updates the signed-in user; $4: the display name beside the unique handle. */
export const UPSERT_USER = `
  INSERT INTO users (provider_id, username, avatar, global_name, last_login_at)
  VALUES ($1, $2, $3, $4, now())
  ON CONFLICT (provider_id) DO UPDATE
    SET username = EXCLUDED.username, avatar = EXCLUDED.avatar, global_name = EXCLUDED.global_name,
        last_login_at = now(), updated_at = now()
  RETURNING id, provider_id AS "providerId", username, avatar, premium_expires_at AS "premiumExpiresAt"`;

/** Forgets the user $1's guilds that are not in $2 any more. */
export const DROP_GUILDS_NOT_IN =
  'DELETE FROM user_guilds WHERE user_id = $1 AND guild_id <> ALL($2::text[])';

/** User $1's manageable guilds, one array per column. */
export const UPSERT_GUILDS = `
  INSERT INTO user_guilds (user_id, guild_id, name, icon, owner, permissions, refreshed_at)
  SELECT $1, guild.*, now() FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[]) AS guild
  ON CONFLICT (user_id, guild_id) DO UPDATE
    SET name = EXCLUDED.name, icon = EXCLUDED.icon, owner = EXCLUDED.owner,
        permissions = EXCLUDED.permissions, refreshed_at = EXCLUDED.refreshed_at`;

/** The tier ends of the user premium record $1 (its own days, migration 027), each tier's rank beside. */
export const OWN_TIER_ENDS = `
  SELECT d.tier, t.rank, extract(epoch FROM d.ends_at)::float8 * 1000 AS "endsMs"
  FROM user_premium_days d LEFT JOIN tiers t ON t.code = d.tier
  WHERE d.record_id = $1 AND d.ends_at > now()`;

/** The name of guild $2 from user $1's (users.id) last sign-in. */
export const GUILD_NAME_SEEN_BY_USER = 'SELECT name FROM user_guilds WHERE user_id = $1 AND guild_id = $2';

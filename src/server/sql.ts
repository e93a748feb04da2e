/** The server's own raw SQL (the routes call core for everything else). */

/** The name of guild $2 from user $1's last sign-in. */
export const GUILD_NAME_SEEN_BY = `
  SELECT g.name FROM user_guilds g JOIN users u ON u.id = g.user_id
  WHERE u.provider_id = $1 AND g.guild_id = $2`;

/** The readiness probe: a round trip to PostgreSQL. */
export const PROBE = 'SELECT 1';

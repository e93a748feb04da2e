/** What each holder's own expiry is, from their record and the guilds they bought for. */
import type { PlainQuery } from '../db/prepared-statements';
import { DAYS_TABLES, type RecordOwnerKey } from './sql';

/**
 * What each buyer's own premium gets from the guilds they bought for (docs/design.md, "Money rules"): only the days
 * they paid for themselves, never the days other buyers added to the same guild. Their unrevoked grants
 * for a guild, in order, run back to back from when each was made (a queue: each starts at the later of
 * its own time and the end of the one before), and the guild's record caps the result, since a revoke of
 * anyone's grant shortens the guild for all. One row per (user_id, guild_id) of the users `userIds`
 * (an SQL expression of a bigint[]) names.
 */
const buyerGuildExpiries = (userIds: string) => `
  SELECT paid.user_id, paid.guild_id, LEAST(max(paid.paid_until), sp.expires_at) AS expires_at,
    sp.id AS record_id, array_agg(DISTINCT paid.tier) AS tiers
  FROM (
    SELECT g.user_id, g.guild_id, g.tier,
      g.created_at + make_interval(days => (sum(g.days) OVER (
        PARTITION BY g.user_id, g.guild_id ORDER BY g.created_at DESC, g.id DESC))::int) AS paid_until
    FROM premium_grants g
    WHERE g.user_id = ANY(${userIds}) AND g.category = 'SERVER' AND g.kind = 'grant'
      AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
  ) paid
  JOIN server_premiums sp ON sp.guild_id = paid.guild_id AND sp.version > 0
  GROUP BY paid.user_id, paid.guild_id, sp.expires_at, sp.id`;

/**
 * Per tier, what buyers get of the guilds they bought for (`perks`: rows of buyerGuildExpiries): each tier
 * they bought there, until the guild's end of that tier, never past what they paid for (docs/money-rules.md).
 */
const buyerGuildTierExpiries = (perks: string) => `
  SELECT p.user_id, d.tier, LEAST(p.expires_at, d.ends_at) AS expires_at
  FROM ${perks} p JOIN ${DAYS_TABLES.SERVER} d ON d.record_id = p.record_id AND d.tier = ANY(p.tiers)`;

/**
 * Raises user $1's expiry to what they paid for on guild $2 (see buyerGuildExpiries), and each of their
 * tiers' to what they get of it there; never lowers either.
 */
export function raiseBuyerExpiry({ providerId, guildId }: RecordOwnerKey): PlainQuery {
  return {
    name: 'raise-buyer-expiry',
    text: `WITH perk AS (
             SELECT b.* FROM (${buyerGuildExpiries('ARRAY[(SELECT id FROM users WHERE provider_id = $1)]')}) b
             WHERE b.guild_id = $2),
           raised_tiers AS (
             INSERT INTO user_tier_expiries (user_id, tier, expires_at)
             SELECT t.user_id, t.tier, t.expires_at FROM (${buyerGuildTierExpiries('perk')}) t WHERE t.expires_at > now()
             ON CONFLICT (user_id, tier) DO UPDATE SET expires_at = EXCLUDED.expires_at
             WHERE user_tier_expiries.expires_at < EXCLUDED.expires_at)
           UPDATE users u SET updated_at = now(),
             premium_expires_at = GREATEST(u.premium_expires_at, (SELECT expires_at FROM perk))
           WHERE u.provider_id = $1`,
    values: [providerId, guildId],
  };
}

/**
 * Sets the expiry of user $1 and of every buyer of guild $2 to the latest of what remains to them: their
 * own record and what they paid for on each guild; and so, per tier, their tier expiries.
 */
export const RECOMPUTE_HOLDER_EXPIRIES = `WITH holders AS (
       SELECT array_agg(DISTINCT id) AS ids FROM (
         SELECT $1::bigint AS id
         UNION ALL
         SELECT user_id FROM premium_grants WHERE category = 'SERVER' AND guild_id = $2) h),
     own AS (
       SELECT up.id, up.user_id, up.expires_at FROM user_premiums up, holders
       WHERE up.user_id = ANY(holders.ids) AND up.version > 0),
     perks AS (SELECT * FROM (${buyerGuildExpiries('(SELECT ids FROM holders)::bigint[]')}) b),
     remaining AS (
       SELECT user_id, expires_at FROM own
       UNION ALL
       SELECT user_id, expires_at FROM perks),
     tiers_remaining AS (
       SELECT user_id, tier, max(expires_at) AS expires_at FROM (
         SELECT own.user_id, d.tier, d.ends_at AS expires_at
         FROM own JOIN ${DAYS_TABLES.USER} d ON d.record_id = own.id
         UNION ALL
         ${buyerGuildTierExpiries('perks')}) t
       WHERE expires_at > now()
       GROUP BY user_id, tier),
     tiers_cleared AS (
       DELETE FROM user_tier_expiries e USING holders
       WHERE e.user_id = ANY(holders.ids)
         AND NOT EXISTS (SELECT 1 FROM tiers_remaining t WHERE t.user_id = e.user_id AND t.tier = e.tier)),
     tiers_set AS (
       INSERT INTO user_tier_expiries (user_id, tier, expires_at)
       SELECT user_id, tier, expires_at FROM tiers_remaining
       ON CONFLICT (user_id, tier) DO UPDATE SET expires_at = EXCLUDED.expires_at
       WHERE user_tier_expiries.expires_at IS DISTINCT FROM EXCLUDED.expires_at)
     UPDATE users u SET updated_at = now(),
       premium_expires_at = (SELECT max(expires_at) FROM remaining r WHERE r.user_id = u.id)
     FROM holders WHERE u.id = ANY(holders.ids)`;

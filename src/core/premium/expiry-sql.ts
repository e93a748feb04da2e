/** The expiry jobs' SQL: records that ran out, tier changes, and the reminders before an end. */
import {
  EXPIRY_DUE,
  LIVE_SUBSCRIPTION,
  perCategory,
  RECORDS,
  renewedBySubscriptionSql,
  runningOf,
  TARGET_KEY_SQL,
  tierDaysOf,
} from './sql';
import type { Category } from './types';

/**
 * Whether guild `guildId` (SQL) is bound to a bundle that a live subscription renews: each of its charges
 * adds the plan's days to every bound server (docs/bundles.md), so the server's end will not come either.
 */
function renewedByBundleSql(guildId: string): string {
  return `EXISTS (SELECT 1 FROM bundle_bindings b JOIN bundles bu ON bu.id = b.bundle_id
    JOIN subscriptions s ON s.id = bu.subscription_id
    WHERE b.guild_id = ${guildId} AND b.unbound_at IS NULL AND bu.status = 'active' AND ${LIVE_SUBSCRIPTION})`;
}

/** Whether a live subscription renews a record, from the alias of `users` (USER) and of the record (`r`). */
export const RECORD_RENEWED: Record<Category, string> = {
  USER: renewedBySubscriptionSql(TARGET_KEY_SQL.USER('u')),
  SERVER: `(${renewedBySubscriptionSql(TARGET_KEY_SQL.SERVER('r'))} OR ${renewedByBundleSql('r.guild_id')})`,
};

/** Up to $1 records whose expiry passed unannounced, the longest expired first, skipping locked ones. */
export const DUE_EXPIRIES = perCategory((category) => {
  const { table, guildId, holder } = RECORDS[category];
  return `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version
     FROM ${table} r JOIN users u ON u.id = ${holder}
     WHERE ${EXPIRY_DUE} AND r.expires_at <= now()
     ORDER BY r.expires_at, r.id
     LIMIT $1
     FOR UPDATE OF r SKIP LOCKED`;
});

/** The records $1 ran out: a new version, announced, with no tier running. */
export const MARK_EXPIRED = perCategory(
  (category) => `UPDATE ${RECORDS[category].table}
     SET version = version + 1, expiry_announced_version = version + 1, updated_at = now(),
         tier = NULL, tier_changes_at = NULL
     WHERE id = ANY($1)`,
);

/**
 * Up to $1 running records whose running tier ended over a lower tier with days (`tier_changes_at`, found
 * through `*_tier_changes`), the longest due first, skipping locked ones: each takes its new running tier
 * and next change, and a new version when the tier it runs is not the one announced. Answers each record
 * as the expiry job announces it, with `changed` (whether it has a new version, to announce) and the new
 * tier's `features`.
 */
export const TIER_CHANGES = perCategory((category) => {
  const { table, guildId, holder } = RECORDS[category];
  return `
  WITH due AS (
    SELECT r.id, r.tier FROM ${table} r
    WHERE r.tier_changes_at <= now() AND r.expires_at > now() AND r.version > 0
    ORDER BY r.tier_changes_at
    LIMIT $1
    FOR UPDATE OF r SKIP LOCKED),
  next AS (
    SELECT due.id, run.tier IS NOT NULL AND due.tier IS DISTINCT FROM run.tier AS changed,
      COALESCE(run.tier, due.tier) AS tier, run.features,
      (SELECT run.ends_at WHERE EXISTS (
        SELECT 1 FROM (${tierDaysOf(category, 'due.id')}) l WHERE l.rank < run.rank AND l.ends_at > run.ends_at)) AS changes_at
    FROM due LEFT JOIN LATERAL (${runningOf(`(${tierDaysOf(category, 'due.id')}) d`)}) run ON true)
  UPDATE ${table} r
  SET version = r.version + CASE WHEN next.changed THEN 1 ELSE 0 END, tier = next.tier,
      tier_changes_at = next.changes_at, updated_at = now()
  FROM next WHERE r.id = next.id
  RETURNING r.id, ${guildId} AS guild_id, (SELECT u.provider_id FROM users u WHERE u.id = ${holder}) AS provider_id,
    r.slots, r.expires_at, r.version, r.tier, COALESCE(next.features, '{}'::jsonb) AS features, next.changed`;
});

/**
 * THE selection of records to remind, in one place: active, expiring within $2 days, not yet reminded
 * of this expiry, not renewed by a subscription, and not locked by a concurrent change or reminder run
 * (SKIP LOCKED: a second worker skips them, and finds them marked once this transaction commits). At
 * most $1.
 */
export const EXPIRING_RECORDS = perCategory((category) => {
  const { table, guildId, holder } = RECORDS[category];
  return `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version, r.tier,
       COALESCE(t.features, '{}'::jsonb) AS features
     FROM ${table} r JOIN users u ON u.id = ${holder} LEFT JOIN tiers t ON t.code = r.tier
     WHERE r.version > 0
       AND r.expires_at > now() AND r.expires_at <= now() + make_interval(days => $2)
       AND r.expiry_reminded_for IS DISTINCT FROM r.expires_at
       AND NOT ${RECORD_RENEWED[category]}
     ORDER BY r.expires_at
     LIMIT $1
     FOR UPDATE OF r SKIP LOCKED`;
});

/** The records $1 were reminded of their current expiry. */
export const MARK_REMINDED = perCategory(
  (category) => `UPDATE ${RECORDS[category].table} SET expiry_reminded_for = expires_at WHERE id = ANY($1)`,
);

/**
 * What a message to a record's holder names (docs/buyer-messages.md), from the record `r` of `category`:
 * the holder, the record's target key as the reference, and the latest grant's plan and what its order
 * cost (0 when no order paid for it: a gift code, a subscription's charge, an operator's grant).
 */
function holderMessages(category: Category, where: string): string {
  const { table, holder } = RECORDS[category];
  const grants =
    category === 'USER'
      ? `g.user_id = r.user_id AND g.category = 'USER'`
      : `g.guild_id = r.guild_id AND g.category = 'SERVER'`;
  const target = category === 'USER' ? TARGET_KEY_SQL.USER('u') : TARGET_KEY_SQL.SERVER('r');
  return `SELECT r.id, r.version, r.expires_at AS "expiresAt", u.provider_id AS "to", u.username AS buyer,
       ${target} AS reference, COALESCE(g.tier, r.tier, '') AS tier, COALESCE(g.plan_type, '') AS "planType",
       COALESCE(g.days, 0) AS "durationDays", COALESCE(o.amount_paise, 0) AS "amountPaise"
     FROM ${table} r JOIN users u ON u.id = ${holder}
     LEFT JOIN LATERAL (SELECT g.tier, g.plan_type, g.days, g.order_id FROM premium_grants g
       WHERE ${grants} AND g.kind = 'grant' ORDER BY g.created_at DESC LIMIT 1) g ON true
     LEFT JOIN orders o ON o.id = g.order_id
     WHERE ${where} AND NOT ${RECORD_RENEWED[category]}`;
}

/**
 * Up to $1 records that expire within $2 days whose holder was not told of this expiry, not renewed by
 * a subscription, locked (another run skips them): the `expiring` messages' facts.
 */
export const EXPIRING_MESSAGES = perCategory(
  (category) => `${holderMessages(
    category,
    `r.version > 0 AND r.expires_at > now() AND r.expires_at <= now() + make_interval(days => $2)
       AND r.expiring_messaged_for IS DISTINCT FROM r.expires_at`,
  )}
     ORDER BY r.expires_at LIMIT $1 FOR UPDATE OF r SKIP LOCKED`,
);

/** The holders of records $1 were told of their current expiry. */
export const MARK_EXPIRING_MESSAGED = perCategory(
  (category) => `UPDATE ${RECORDS[category].table} SET expiring_messaged_for = expires_at WHERE id = ANY($1)`,
);

/** The `lapsed` messages' facts of records $1, which just ran out, unless a subscription renews them. */
export const LAPSED_MESSAGES = perCategory((category) => holderMessages(category, 'r.id = ANY($1)'));

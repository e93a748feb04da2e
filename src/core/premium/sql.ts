/**
 * Premium's raw SQL: the records, the ledger, the grant statement, what is left of each grant, expiries
 * and their reminders. Plain reads and writes of one row go through the models instead.
 */
import type { PlainQuery } from '../db/prepared-statements';
import { CATEGORIES, type Category } from './types';

const LIVE_SUBSCRIPTION = "s.status IN ('authenticated', 'active') AND NOT s.cancel_at_cycle_end";

/**
 * Whether a live subscription will renew a record, so that the expiry reminders never warn of an end
 * that will not come: `authenticated` or `active`, not cancelled at cycle end. A failing one does not
 * count; its holder is worth reminding. `targetKey` is the SQL of the record's target key
 * (`TARGET_KEY_SQL.USER('u')`, `TARGET_KEY_SQL.SERVER('r')`).
 */
export function renewedBySubscriptionSql(targetKey: string): string {
  return `EXISTS (SELECT 1 FROM subscriptions s WHERE s.target_key = ${targetKey} AND ${LIVE_SUBSCRIPTION})`;
}

/**
 * Whether guild `guildId` (SQL) is bound to a bundle that a live subscription renews: each of its charges
 * adds the plan's days to every bound server (docs/bundles.md), so the server's end will not come either.
 */
function renewedByBundleSql(guildId: string): string {
  return `EXISTS (SELECT 1 FROM bundle_bindings b JOIN bundles bu ON bu.id = b.bundle_id
    JOIN subscriptions s ON s.id = bu.subscription_id
    WHERE b.guild_id = ${guildId} AND b.unbound_at IS NULL AND bu.status = 'active' AND ${LIVE_SUBSCRIPTION})`;
}

/** The target key of a record, as SQL, from the alias of `users` (USER) or of `server_premiums` (SERVER). */
export const TARGET_KEY_SQL: Record<Category, (alias: string) => string> = {
  USER: (users) => `'user:' || ${users}.provider_id`,
  SERVER: (serverPremiums) => `'guild:' || ${serverPremiums}.guild_id`,
};

/** Whether a live subscription renews a record, from the alias of `users` (USER) and of the record (`r`). */
const RECORD_RENEWED: Record<Category, string> = {
  USER: renewedBySubscriptionSql(TARGET_KEY_SQL.USER('u')),
  SERVER: `(${renewedBySubscriptionSql(TARGET_KEY_SQL.SERVER('r'))} OR ${renewedByBundleSql('r.guild_id')})`,
};

/** Where each category's entitlement lives: one row per user, or one row per guild. */
export const RECORD_TABLES = {
  USER: { table: 'user_premiums', key: 'user_id' },
  SERVER: { table: 'server_premiums', key: 'guild_id' },
} as const;

/** Per category: the days of each tier of a record (migration 027), keyed by the record's id and the tier. */
export const DAYS_TABLES = { USER: 'user_premium_days', SERVER: 'server_premium_days' } as const;

/**
 * The tier days of the record whose id is the SQL `recordId`: each tier's code, rank, features and end.
 * The stacking rule (docs/money-rules.md, "Tiers"): the highest-ranked tier with days runs first; a tier
 * starts at GREATEST(now, the last end of the tiers above it) and has GREATEST(its end - its start, 0) left.
 */
const tierDaysOf = (category: Category, recordId: string) => `
    SELECT d.tier, t.rank, t.features, d.ends_at FROM ${DAYS_TABLES[category]} d JOIN tiers t ON t.code = d.tier
    WHERE d.record_id = ${recordId}`;

/** The running tier of the tier days `days` (a CTE's name): the highest-ranked one with days left. */
const runningOf = (days: string) =>
  `SELECT tier, rank, features, ends_at FROM ${days} WHERE ends_at > now() ORDER BY rank DESC LIMIT 1`;

/**
 * When the running tier `running` of `days` ends over a lower tier with days after it (the expiry job
 * then announces the change); null when the record runs out with it.
 */
const tierChangesAt = (days: string, running: string) => `(SELECT r.ends_at FROM ${running} r
    WHERE EXISTS (SELECT 1 FROM ${days} l WHERE l.rank < r.rank AND l.ends_at > r.ends_at))`;

/** Per category: the record table, and the user the event names. */
const RECORDS = {
  USER: { table: 'user_premiums', guildId: 'NULL::text', holder: 'r.user_id' },
  SERVER: { table: 'server_premiums', guildId: 'r.guild_id', holder: 'r.buyer_user_id' },
} as const;

/** A record named by who holds (USER) or bought for (SERVER) it (RecordOwner in records.ts). */
interface RecordOwnerKey {
  category: Category;
  providerId: string;
  guildId: string | null;
}

/** The statement of each category that `build` makes. */
const perCategory = <T>(build: (category: Category) => T) =>
  Object.fromEntries(CATEGORIES.map((category) => [category, build(category)])) as Record<Category, T>;

/**
 * A record whose expiry is still to be announced: the predicate of the `*_due_by_time` (migration 039)
 * and `*_live_by_id` partial indexes, written the same way so that the planner matches them.
 */
export const EXPIRY_DUE = 'r.version > 0 AND r.expiry_announced_version IS DISTINCT FROM r.version';

/**
 * The two-key advisory-lock space, apart from the scheduler's one-key job locks, so that no idempotency
 * key can ever contend with a job's lock.
 */
const IDEMPOTENCY_LOCK_CLASS = 1;

/** Holds every other change with the same idempotency key off until this transaction ends. */
export const idempotencyLock = (idempotencyKey: string) => ({
  name: 'idempotency-lock',
  text: 'SELECT pg_advisory_xact_lock($1, hashtext($2))',
  values: [IDEMPOTENCY_LOCK_CLASS, idempotencyKey],
});

/** The SELECT list of a `premium_grants` row, aliased `alias`, as a LedgerRow. */
export const ledgerRowColumns = (alias: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.category, ${alias}.guild_id AS "guildId", ${alias}.plan_type AS "planType",
   ${alias}.tier, ${alias}.days, ${alias}.expires_before AS "expiresBefore", ${alias}.expires_after AS "expiresAfter",
   ${alias}.version, ${alias}.event_id AS "eventId", ${alias}.source`;

/**
 * USER premium raises its holder's expiry to the record's, and each of their tiers' to the record's end of
 * that tier; SERVER premium its buyer's, by raiseBuyerExpiry.
 */
const RAISE_HOLDER = `,
  raised AS (
    UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, after.expires_at), updated_at = now()
    FROM after WHERE users.id = (SELECT id FROM buyer)),
  raised_tiers AS (
    INSERT INTO user_tier_expiries (user_id, tier, expires_at)
    SELECT buyer.id, d.tier, d.ends_at FROM buyer, after, after_days d WHERE d.ends_at > now()
    ON CONFLICT (user_id, tier) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE user_tier_expiries.expires_at < EXCLUDED.expires_at)`;

function grantStatementText(category: Category, orderPaid: string | null): string {
  const { table, key } = RECORD_TABLES[category];
  const days = DAYS_TABLES[category];
  const record = category === 'USER' ? '(SELECT id FROM buyer)' : '$3::text';
  const paid = orderPaid === null ? '' : `,\n  paid AS (\n    ${orderPaid})`;
  return `
  WITH buyer AS (SELECT id FROM users WHERE provider_id = $1::text),
  prior AS (
    SELECT ${ledgerRowColumns('g')}, u.provider_id AS "providerId"
    FROM premium_grants g JOIN users u ON u.id = g.user_id
    WHERE g.idempotency_key = $2::text),
  granted AS (SELECT code, rank, features FROM tiers WHERE code = $14::text),
  before AS (SELECT id, expires_at, version FROM ${table} WHERE ${key} = ${record}),
  days AS (${tierDaysOf(category, '(SELECT id FROM before)')}),
  -- docs/money-rules.md, "Tiers": the granted tier's days start where its own or any higher tier's end, never
  -- before now; the days, never short of the floor (GREATEST ignores a NULL). Lower tiers wait that much longer.
  base AS (SELECT GREATEST(now(), (SELECT max(d.ends_at) FROM days d WHERE d.rank >= g.rank)) AS at FROM granted g),
  grown AS (
    SELECT g.code, g.rank, g.features, e.ends_at, e.ends_at - b.at AS delta
    FROM granted g, base b,
      LATERAL (SELECT GREATEST(b.at + make_interval(days => $5::int), $6::timestamptz) AS ends_at) e),
  after_days AS (
    SELECT d.tier, d.rank, d.features,
      CASE WHEN d.rank < g.rank AND d.ends_at > now() THEN d.ends_at + g.delta ELSE d.ends_at END AS ends_at
    FROM days d, grown g WHERE d.tier <> g.code
    UNION ALL
    SELECT code, rank, features, ends_at FROM grown),
  was_running AS (${runningOf('days')}),
  running AS (${runningOf('after_days')}),
  after AS (
    UPDATE ${table}
    SET expires_at = (SELECT max(ends_at) FROM after_days), version = version + 1, updated_at = now(),
        tier = (SELECT tier FROM running), tier_changes_at = ${tierChangesAt('after_days', 'running')},
        tier_days_written = tier_days_written + 1
    WHERE ${key} = ${record} AND NOT EXISTS (SELECT 1 FROM prior) AND EXISTS (SELECT 1 FROM granted)
    RETURNING id, expires_at, version, tier),
  stored AS (
    INSERT INTO ${days} (record_id, tier, ends_at)
    SELECT after.id, d.tier, d.ends_at FROM after, after_days d
    ON CONFLICT (record_id, tier) DO UPDATE SET ends_at = EXCLUDED.ends_at
    WHERE ${days}.ends_at IS DISTINCT FROM EXCLUDED.ends_at),
  ledger AS (
    INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, guild_id, plan_type, tier, days,
                                expires_before, expires_after, source, actor, reason, order_id, version)
    SELECT $2::text, $7::uuid, 'grant', '${category}', buyer.id, $3::text, $4::text, $14::text, $5::int,
           CASE WHEN before.version > 0 THEN before.expires_at END, after.expires_at,
           $8::text, $9::text, $10::text, $11::bigint, after.version
    FROM buyer, before, after
    RETURNING *),
  -- One event per change: UPDATE instead of ADD when the grant changed which tier runs (docs/events.md).
  event_type AS (
    SELECT CASE WHEN EXISTS (SELECT 1 FROM was_running w, after WHERE w.tier <> after.tier)
      THEN '${category}_PREMIUM_UPDATE' ELSE $12::jsonb ->> 'type' END AS type),
  event AS (
    INSERT INTO outbox (event_id, type, aggregate_key, payload)
    SELECT $7::uuid, event_type.type, $13::text, $12::jsonb || jsonb_build_object(
      'type', event_type.type,
      'expiresAt', to_char(after.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'version', after.version, 'tier', after.tier,
      'features', COALESCE((SELECT features FROM running), '{}'::jsonb))
    FROM after, event_type)${paid}${category === 'USER' ? RAISE_HOLDER : ''}
  SELECT ${ledgerRowColumns('ledger')}, $1::text AS "providerId", false AS replayed FROM ledger
  UNION ALL
  SELECT prior.*, true FROM prior`;
}

const grantTexts = new Map<string, string>();

/**
 * The grant statement of `category` (its parameters: GrantValues in grant-statement.ts), and when a
 * payment pays an order, `orderPaid`: the order's statement (orders/sql.ts) as one of its CTEs.
 */
export function grantSql(category: Category, orderPaid: string | null): string {
  const key = `${category} ${orderPaid ?? ''}`;
  const text = grantTexts.get(key) ?? grantStatementText(category, orderPaid);
  grantTexts.set(key, text);
  return text;
}

/** Creates the record keyed $1 (for SERVER: bought by user $2) when missing, at version 0. */
export const CREATE_RECORD = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  const buyer = category === 'SERVER';
  return `INSERT INTO ${table} (${key}, ${buyer ? 'buyer_user_id, ' : ''}expires_at, version)
     VALUES ($1, ${buyer ? '$2, ' : ''}now(), 0) ON CONFLICT (${key}) DO NOTHING`;
});

/** The record keyed $1, locked. */
export const LOCK_RECORD = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  return `SELECT expires_at, version FROM ${table} WHERE ${key} = $1 FOR UPDATE`;
});

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
 * Creates the record of user $1 (USER) or of guild $2 bought by user $1 (SERVER) when missing (version 0:
 * invisible until its first change) and locks it. `DO UPDATE … WHERE false` locks an existing row without
 * writing a new version of it. Nothing when tier `tier` is not in the catalog: the grant then writes nothing.
 */
export function claimRecord({ category, providerId, guildId }: RecordOwnerKey, tier: string): PlainQuery {
  return category === 'USER'
    ? {
        name: 'claim-user-record',
        text: `INSERT INTO user_premiums (user_id, expires_at, version)
               SELECT id, now(), 0 FROM users WHERE provider_id = $1 AND EXISTS (SELECT 1 FROM tiers WHERE code = $2)
               ON CONFLICT (user_id) DO UPDATE SET version = user_premiums.version WHERE false`,
        values: [providerId, tier],
      }
    : {
        name: 'claim-server-record',
        text: `INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version)
               SELECT $2, id, now(), 0 FROM users WHERE provider_id = $1 AND EXISTS (SELECT 1 FROM tiers WHERE code = $3)
               ON CONFLICT (guild_id) DO UPDATE SET version = server_premiums.version WHERE false`,
        values: [providerId, guildId, tier],
      };
}

/** Whether tier $1 is in the catalog and user $2 exists: why a grant that wrote nothing refused. */
export const GRANT_REFUSAL = `SELECT EXISTS (SELECT 1 FROM tiers WHERE code = $1) AS "tierKnown",
  EXISTS (SELECT 1 FROM users WHERE provider_id = $2) AS "userKnown"`;

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

/**
 * Who owns which part of a record (docs/money-rules.md), tier by tier: what is left of a tier's days is the
 * tail of a queue of the record's grants of that tier in ledger order, each as long as what it added (less
 * what a revoke of it took). Time runs out oldest grant first, so what is left belongs to the newest grants:
 * walking back from the newest, each holds the lesser of its own length and what is not yet claimed by newer
 * ones. A grant whose days a transfer made before 012 moved away (the whole guild at once) holds nothing
 * here. $1: the record's key.
 */
export const GRANT_REMAINDERS = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  return `
  WITH record AS (
    SELECT r.id FROM ${table} r WHERE r.${key} = $1::${category === 'USER' ? 'bigint' : 'text'} AND r.version > 0),
  days AS (${tierDaysOf(category, '(SELECT id FROM record)')}),
  left_now AS (
    SELECT d.tier, GREATEST(extract(epoch FROM d.ends_at - GREATEST(now(),
      (SELECT max(h.ends_at) FROM days h WHERE h.rank > d.rank))), 0) * 1000 AS ms
    FROM days d),
  grants AS (
    SELECT g.id, g.user_id, g.tier,
      extract(epoch FROM g.expires_after - GREATEST(g.expires_before, g.created_at)) * 1000 AS contribution,
      COALESCE(extract(epoch FROM taken.expires_before - taken.expires_after) * 1000, 0) AS taken,
      taken.id IS NOT NULL AS revoked
    FROM premium_grants g
    LEFT JOIN premium_grants taken ON taken.revokes_grant_id = g.id
    WHERE g.kind = 'grant' AND g.category = '${category}'
      AND ${category === 'USER' ? 'g.user_id = $1::bigint' : 'g.guild_id = $1::text'}
      AND NOT EXISTS (
        SELECT 1 FROM premium_transfers t JOIN premium_grants moved ON moved.id = t.remove_grant_id
        WHERE t.from_guild_id = g.guild_id AND t.remove_grant_id > g.id AND moved.revokes_grant_id IS NULL)),
  queued AS (
    SELECT id, user_id, tier, contribution, revoked, GREATEST(contribution - taken, 0) AS length,
      sum(GREATEST(contribution - taken, 0)) OVER (PARTITION BY tier ORDER BY id DESC) AS through
    FROM grants)
  SELECT q.id AS "grantId", q.user_id AS "userId", q.tier, q.contribution AS "contributionMs",
    GREATEST(LEAST(q.length, COALESCE(l.ms, 0) - (q.through - q.length)), 0) AS "remainingMs", q.revoked
  FROM queued q CROSS JOIN record LEFT JOIN left_now l ON l.tier = q.tier
  ORDER BY q.id`;
});

/**
 * What a revoke does to the tier days of the record keyed $1 (docs/money-rules.md, "Tiers"): `end` ends
 * every tier now; `shorten` takes $2 milliseconds of tier $3, never more than is left of it, and moves the
 * lower tiers with days in by as much. The record's expiry becomes its last tier's end (a past one never
 * moves forward), its version is bumped, and its running tier and next change follow. A revoke that ends the
 * record announces its own REMOVE, so it marks the record's expiry announced. Answers the record's
 * `expires_at`, `version` and `tier` after, the tier that ran before (`was_tier`), and the running tier's
 * `features`.
 */
function setRecordExpiry(category: Category, change: 'end' | 'shorten'): string {
  const { table, key } = RECORD_TABLES[category];
  const days = DAYS_TABLES[category];
  const taken =
    change === 'end'
      ? ''
      : `,
  taken AS (
    SELECT d.rank, LEAST($2::double precision * interval '1 millisecond', GREATEST(
      d.ends_at - GREATEST(now(), (SELECT max(h.ends_at) FROM days h WHERE h.rank > d.rank)), interval '0')) AS amount
    FROM days d WHERE d.tier = $3::text)`;
  const moved =
    change === 'end'
      ? 'SELECT tier, rank, features, LEAST(ends_at, now()) AS ends_at FROM days'
      : `SELECT d.tier, d.rank, d.features,
      CASE WHEN d.tier = $3::text OR (d.rank < t.rank AND d.ends_at > now()) THEN d.ends_at - t.amount
           ELSE d.ends_at END AS ends_at
    FROM days d LEFT JOIN taken t ON true`;
  // A record without tier rows (none is expected: 027 and its trigger write them) keeps the rule before tiers.
  const withoutTiers =
    change === 'end'
      ? 'LEAST(record.expires_at, now())'
      : "LEAST(record.expires_at, GREATEST(record.expires_at - $2::double precision * interval '1 millisecond', now()))";
  return `
  WITH record AS (SELECT id, expires_at FROM ${table} WHERE ${key} = $1),
  days AS (${tierDaysOf(category, '(SELECT id FROM record)')})${taken},
  after_days AS (${moved}),
  was_running AS (${runningOf('days')}),
  running AS (${runningOf('after_days')}),
  stored AS (
    UPDATE ${days} d SET ends_at = a.ends_at FROM after_days a
    WHERE d.record_id = (SELECT id FROM record) AND d.tier = a.tier AND d.ends_at <> a.ends_at),
  expiry AS (SELECT COALESCE((SELECT max(ends_at) FROM after_days), ${withoutTiers}) AS at FROM record)
  UPDATE ${table} r
  SET expires_at = expiry.at, version = r.version + 1, updated_at = now(),
      tier = (SELECT tier FROM running), tier_changes_at = ${tierChangesAt('after_days', 'running')},
      tier_days_written = r.tier_days_written + 1,
      expiry_announced_version = CASE WHEN expiry.at <= now() THEN r.version + 1 ELSE r.expiry_announced_version END
  FROM expiry WHERE r.${key} = $1
  RETURNING r.expires_at, r.version, r.tier, (SELECT tier FROM was_running) AS was_tier,
    (SELECT features FROM running) AS features`;
}

/** Per category, the revoke's statements (setRecordExpiry): $1 the record's key; `shorten`: $2 ms of tier $3. */
export const SET_RECORD_EXPIRY = perCategory((category) => ({
  end: setRecordExpiry(category, 'end'),
  shorten: setRecordExpiry(category, 'shorten'),
}));

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

/** The tier the record keyed $1 runs, as last announced, and its features: none when it is not premium. */
export const RECORD_TIER = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  return `SELECT CASE WHEN r.expires_at > now() THEN r.tier END AS tier,
       CASE WHEN r.expires_at > now() THEN t.features END AS features
     FROM ${table} r LEFT JOIN tiers t ON t.code = r.tier WHERE r.${key} = $1`;
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

/** The days trail's (days-trail.ts). $1: the advisory-lock class, $2: the key hashed into it. */
export const ADVISORY_XACT_LOCK = 'SELECT pg_advisory_xact_lock($1, hashtext($2))';

/** The first standing transfer of the whole premium of guild $1 after ledger row $2. */
export const NEXT_TRANSFER_FROM = `
  SELECT t.to_guild_id, t.add_grant_id FROM premium_transfers t
  JOIN premium_grants removed ON removed.id = t.remove_grant_id AND removed.revokes_grant_id IS NULL
  WHERE t.from_guild_id = $1 AND t.remove_grant_id > $2 ORDER BY t.remove_grant_id LIMIT 1`;

/** The grants that carry on the days of grants $1 since transfers moved them, with their guilds. */
export const MOVED_TO = `
  SELECT m.to_grant_id AS id, g.guild_id AS "guildId" FROM premium_transfer_moves m
  JOIN premium_grants g ON g.id = m.to_grant_id WHERE m.from_grant_id = ANY($1::bigint[])`;

/**
 * Appends the events of $1 (a JSON array of `{aggregateKey, payload}`, each payload with its eventId and
 * type) to the outbox in one statement, in the array's order: the expiry and reminder jobs' batches.
 */
export const APPEND_EVENTS = `INSERT INTO outbox (event_id, type, aggregate_key, payload)
  SELECT (e.entry->'payload'->>'eventId')::uuid, e.entry->'payload'->>'type', e.entry->>'aggregateKey', e.entry->'payload'
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(entry, n)
  ORDER BY e.n`;

/**
 * Premium's shared raw SQL: the record and tier-days tables, the stacking rule's pieces, the ledger's
 * columns, claiming and locking a record, and the outbox batch. The grant statement is in grant-sql.ts,
 * the holders' expiries in holder-sql.ts, a revoke's in revoke-sql.ts, the expiry jobs' in expiry-sql.ts.
 * Plain reads and writes of one row go through the models instead.
 */
import type { PlainQuery } from '../db/prepared-statements';
import { CATEGORIES, type Category } from './types';

export const LIVE_SUBSCRIPTION = "s.status IN ('authenticated', 'active') AND NOT s.cancel_at_cycle_end";

/**
 * Whether a live subscription will renew a record, so that the expiry reminders never warn of an end
 * that will not come: `authenticated` or `active`, not cancelled at cycle end. A failing one does not
 * count; its holder is worth reminding. `targetKey` is the SQL of the record's target key
 * (`TARGET_KEY_SQL.USER('u')`, `TARGET_KEY_SQL.SERVER('r')`).
 */
export function renewedBySubscriptionSql(targetKey: string): string {
  return `EXISTS (SELECT 1 FROM subscriptions s WHERE s.target_key = ${targetKey} AND ${LIVE_SUBSCRIPTION})`;
}

/** The target key of a record, as SQL, from the alias of `users` (USER) or of `server_premiums` (SERVER). */
export const TARGET_KEY_SQL: Record<Category, (alias: string) => string> = {
  USER: (users) => `'user:' || ${users}.provider_id`,
  SERVER: (serverPremiums) => `'guild:' || ${serverPremiums}.guild_id`,
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
export const tierDaysOf = (category: Category, recordId: string) => `
    SELECT d.tier, t.rank, t.features, d.ends_at FROM ${DAYS_TABLES[category]} d JOIN tiers t ON t.code = d.tier
    WHERE d.record_id = ${recordId}`;

/** The running tier of the tier days `days` (a CTE's name): the highest-ranked one with days left. */
export const runningOf = (days: string) =>
  `SELECT tier, rank, features, ends_at FROM ${days} WHERE ends_at > now() ORDER BY rank DESC LIMIT 1`;

/**
 * When the running tier `running` of `days` ends over a lower tier with days after it (the expiry job
 * then announces the change); null when the record runs out with it.
 */
export const tierChangesAt = (days: string, running: string) => `(SELECT r.ends_at FROM ${running} r
    WHERE EXISTS (SELECT 1 FROM ${days} l WHERE l.rank < r.rank AND l.ends_at > r.ends_at))`;

/** Per category: the record table, and the user the event names. */
export const RECORDS = {
  USER: { table: 'user_premiums', guildId: 'NULL::text', holder: 'r.user_id' },
  SERVER: { table: 'server_premiums', guildId: 'r.guild_id', holder: 'r.buyer_user_id' },
} as const;

/** A record named by who holds (USER) or bought for (SERVER) it (RecordOwner in records.ts). */
export interface RecordOwnerKey {
  category: Category;
  providerId: string;
  guildId: string | null;
}

/** The statement of each category that `build` makes. */
export const perCategory = <T>(build: (category: Category) => T) =>
  Object.fromEntries(CATEGORIES.map((category) => [category, build(category)])) as Record<Category, T>;

/**
 * A record whose expiry is still to be announced: the predicate of the `*_due_by_time` (migration 039)
 * and `*_live_by_id` partial indexes, written the same way so that the planner matches them.
 */
export const EXPIRY_DUE = 'r.version > 0 AND r.expiry_announced_version IS DISTINCT FROM r.version';

/** The SELECT list of a `premium_grants` row, aliased `alias`, as a LedgerRow. */
export const ledgerRowColumns = (alias: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.category, ${alias}.guild_id AS "guildId", ${alias}.plan_type AS "planType",
   ${alias}.tier, ${alias}.days, ${alias}.expires_before AS "expiresBefore", ${alias}.expires_after AS "expiresAfter",
   ${alias}.version, ${alias}.event_id AS "eventId", ${alias}.source`;

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

/** The tier the record keyed $1 runs, as last announced, and its features: none when it is not premium. */
export const RECORD_TIER = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  return `SELECT CASE WHEN r.expires_at > now() THEN r.tier END AS tier,
       CASE WHEN r.expires_at > now() THEN t.features END AS features
     FROM ${table} r LEFT JOIN tiers t ON t.code = r.tier WHERE r.${key} = $1`;
});

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

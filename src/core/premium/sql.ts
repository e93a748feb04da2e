/**
 * Premium's raw SQL: the records, the ledger, the grant statement, what is left of each grant, expiries
 * and their reminders. Plain reads and writes of one row go through the models instead.
 */
import type { PlainQuery } from '../db/prepared-statements';
import { CATEGORIES, type Category } from './types';

/**
 * Whether a live subscription will renew a record, so that the expiry reminders never warn of an end
 * that will not come: `authenticated` or `active`, not cancelled at cycle end. A failing one does not
 * count; its holder is worth reminding. `targetKey` is the SQL of the record's target key
 * (`TARGET_KEY_SQL.USER('u')`, `TARGET_KEY_SQL.SERVER('r')`).
 */
export function renewedBySubscriptionSql(targetKey: string): string {
  return `EXISTS (SELECT 1 FROM subscriptions s
    WHERE s.target_key = ${targetKey} AND s.status IN ('authenticated', 'active') AND NOT s.cancel_at_cycle_end)`;
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
 * A record whose expiry is still to be announced: the predicate of the `*_expiry_due` partial indexes,
 * written the same way so that the planner matches them.
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
   ${alias}.days, ${alias}.expires_before AS "expiresBefore", ${alias}.expires_after AS "expiresAfter",
   ${alias}.version, ${alias}.event_id AS "eventId", ${alias}.source`;

/** USER premium raises its holder's expiry to the record's; SERVER premium its buyer's, by raiseBuyerExpiry. */
const RAISE_HOLDER = `,
  raised AS (
    UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, after.expires_at), updated_at = now()
    FROM after WHERE users.id = (SELECT id FROM buyer))`;

function grantStatementText(category: Category, orderPaid: string | null): string {
  const { table, key } = RECORD_TABLES[category];
  const record = category === 'USER' ? '(SELECT id FROM buyer)' : '$3::text';
  const paid = orderPaid === null ? '' : `,\n  paid AS (\n    ${orderPaid})`;
  return `
  WITH buyer AS (SELECT id FROM users WHERE provider_id = $1::text),
  prior AS (
    SELECT ${ledgerRowColumns('g')}, u.provider_id AS "providerId"
    FROM premium_grants g JOIN users u ON u.id = g.user_id
    WHERE g.idempotency_key = $2::text),
  before AS (SELECT expires_at, version FROM ${table} WHERE ${key} = ${record}),
  after AS (
    -- docs/design.md: GREATEST(expires_at, now()) + the days; never before the floor (GREATEST ignores a NULL).
    UPDATE ${table}
    SET expires_at = GREATEST(GREATEST(expires_at, now()) + make_interval(days => $5::int), $6::timestamptz),
        version = version + 1, updated_at = now()
    WHERE ${key} = ${record} AND NOT EXISTS (SELECT 1 FROM prior)
    RETURNING expires_at, version),
  ledger AS (
    INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, guild_id, plan_type, days,
                                expires_before, expires_after, source, actor, reason, order_id, version)
    SELECT $2::text, $7::uuid, 'grant', '${category}', buyer.id, $3::text, $4::text, $5::int,
           CASE WHEN before.version > 0 THEN before.expires_at END, after.expires_at,
           $8::text, $9::text, $10::text, $11::bigint, after.version
    FROM buyer, before, after
    RETURNING *),
  event AS (
    INSERT INTO outbox (event_id, type, aggregate_key, payload)
    SELECT $7::uuid, $12::jsonb ->> 'type', $13::text, $12::jsonb || jsonb_build_object(
      'expiresAt', to_char(after.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'version', after.version)
    FROM after)${paid}${category === 'USER' ? RAISE_HOLDER : ''}
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

function setRecordExpiry(category: Category, newExpiry: string): string {
  const { table, key } = RECORD_TABLES[category];
  return `UPDATE ${table} SET expires_at = ${newExpiry}, version = version + 1, updated_at = now(),
       expiry_announced_version =
         CASE WHEN ${newExpiry} <= now() THEN version + 1 ELSE expiry_announced_version END
     WHERE ${key} = $1 RETURNING expires_at, version`;
}

/**
 * Sets the expiry of the record keyed $1: `end` ends it now; `shorten` takes $2 milliseconds back, never
 * below now, and a past expiry never moves forward.
 */
export const SET_RECORD_EXPIRY = perCategory((category) => ({
  end: setRecordExpiry(category, 'LEAST(expires_at, now())'),
  shorten: setRecordExpiry(
    category,
    "LEAST(expires_at, GREATEST(expires_at - $2::double precision * interval '1 millisecond', now()))",
  ),
}));

/**
 * What each buyer's own premium gets from the guilds they bought for (docs/design.md, "Money rules"): only the days
 * they paid for themselves, never the days other buyers added to the same guild. Their unrevoked grants
 * for a guild, in order, run back to back from when each was made (a queue: each starts at the later of
 * its own time and the end of the one before), and the guild's record caps the result, since a revoke of
 * anyone's grant shortens the guild for all. One row per (user_id, guild_id) of the users `userIds`
 * (an SQL expression of a bigint[]) names.
 */
const buyerGuildExpiries = (userIds: string) => `
  SELECT paid.user_id, paid.guild_id, LEAST(max(paid.paid_until), sp.expires_at) AS expires_at
  FROM (
    SELECT g.user_id, g.guild_id,
      g.created_at + make_interval(days => (sum(g.days) OVER (
        PARTITION BY g.user_id, g.guild_id ORDER BY g.created_at DESC, g.id DESC))::int) AS paid_until
    FROM premium_grants g
    WHERE g.user_id = ANY(${userIds}) AND g.category = 'SERVER' AND g.kind = 'grant'
      AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
  ) paid
  JOIN server_premiums sp ON sp.guild_id = paid.guild_id AND sp.version > 0
  GROUP BY paid.user_id, paid.guild_id, sp.expires_at`;

/**
 * Creates the record of user $1 (USER) or of guild $2 bought by user $1 (SERVER) when missing (version 0:
 * invisible until its first change) and locks it. `DO UPDATE … WHERE false` locks an existing row without
 * writing a new version of it.
 */
export function claimRecord({ category, providerId, guildId }: RecordOwnerKey): PlainQuery {
  return category === 'USER'
    ? {
        name: 'claim-user-record',
        text: `INSERT INTO user_premiums (user_id, expires_at, version)
               SELECT id, now(), 0 FROM users WHERE provider_id = $1
               ON CONFLICT (user_id) DO UPDATE SET version = user_premiums.version WHERE false`,
        values: [providerId],
      }
    : {
        name: 'claim-server-record',
        text: `INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version)
               SELECT $2, id, now(), 0 FROM users WHERE provider_id = $1
               ON CONFLICT (guild_id) DO UPDATE SET version = server_premiums.version WHERE false`,
        values: [providerId, guildId],
      };
}

/** Raises user $1's expiry to what they paid for on guild $2 (see buyerGuildExpiries); never lowers it. */
export function raiseBuyerExpiry({ providerId, guildId }: RecordOwnerKey): PlainQuery {
  return {
    name: 'raise-buyer-expiry',
    text: `UPDATE users u SET updated_at = now(), premium_expires_at = GREATEST(u.premium_expires_at,
             (SELECT b.expires_at FROM (${buyerGuildExpiries('ARRAY[u.id]')}) b WHERE b.guild_id = $2))
           WHERE u.provider_id = $1`,
    values: [providerId, guildId],
  };
}

/**
 * Sets the expiry of user $1 and of every buyer of guild $2 to the latest of what remains to them: their
 * own record and what they paid for on each guild.
 */
export const RECOMPUTE_HOLDER_EXPIRIES = `WITH holders AS (
       SELECT array_agg(DISTINCT id) AS ids FROM (
         SELECT $1::bigint AS id
         UNION ALL
         SELECT user_id FROM premium_grants WHERE category = 'SERVER' AND guild_id = $2) h),
     remaining AS (
       SELECT up.user_id, up.expires_at FROM user_premiums up, holders
       WHERE up.user_id = ANY(holders.ids) AND up.version > 0
       UNION ALL
       SELECT b.user_id, b.expires_at FROM (${buyerGuildExpiries('(SELECT ids FROM holders)::bigint[]')}) b)
     UPDATE users u SET updated_at = now(),
       premium_expires_at = (SELECT max(expires_at) FROM remaining r WHERE r.user_id = u.id)
     FROM holders WHERE u.id = ANY(holders.ids)`;

/**
 * Who owns which part of a record (docs/money-rules.md): the record's time left is the tail of a queue of
 * its grants in ledger order, each as long as what it added (less what a revoke of it took). Time runs out
 * oldest grant first, so what is left belongs to the newest grants: walking back from the newest, each
 * holds the lesser of its own length and what is not yet claimed by newer ones. A grant whose days a
 * transfer made before 012 moved away (the whole guild at once) holds nothing here. $1: the record's key.
 */
export const GRANT_REMAINDERS = perCategory(
  (category) => `
  WITH left_now AS (
    SELECT GREATEST(extract(epoch FROM r.expires_at - now()), 0) * 1000 AS ms
    FROM ${category === 'USER' ? 'user_premiums r WHERE r.user_id = $1::bigint' : 'server_premiums r WHERE r.guild_id = $1::text'}
      AND r.version > 0),
  grants AS (
    SELECT g.id, g.user_id,
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
    SELECT id, user_id, contribution, revoked, GREATEST(contribution - taken, 0) AS length,
      sum(GREATEST(contribution - taken, 0)) OVER (ORDER BY id DESC) AS through
    FROM grants)
  SELECT q.id AS "grantId", q.user_id AS "userId", q.contribution AS "contributionMs",
    GREATEST(LEAST(q.length, left_now.ms - (q.through - q.length)), 0) AS "remainingMs", q.revoked
  FROM queued q, left_now
  ORDER BY q.id`,
);

/** Up to $1 records whose expiry passed unannounced, the longest expired first, skipping locked ones. */
export const DUE_EXPIRIES = perCategory((category) => {
  const { table, guildId, holder } = RECORDS[category];
  return `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version
     FROM ${table} r JOIN users u ON u.id = ${holder}
     WHERE ${EXPIRY_DUE} AND r.expires_at <= now()
     ORDER BY r.expires_at
     LIMIT $1
     FOR UPDATE OF r SKIP LOCKED`;
});

/** The records $1 ran out: a new version, announced. */
export const MARK_EXPIRED = perCategory(
  (
    category,
  ) => `UPDATE ${RECORDS[category].table} SET version = version + 1, expiry_announced_version = version + 1, updated_at = now()
     WHERE id = ANY($1)`,
);

/**
 * THE selection of records to remind, in one place: active, expiring within $2 days, not yet reminded
 * of this expiry, not renewed by a subscription, and not locked by a concurrent change or reminder run
 * (SKIP LOCKED: a second worker skips them, and finds them marked once this transaction commits). At
 * most $1.
 */
export const EXPIRING_RECORDS = perCategory((category) => {
  const { table, guildId, holder } = RECORDS[category];
  return `SELECT r.id, ${guildId} AS guild_id, u.provider_id, r.slots, r.expires_at, r.version
     FROM ${table} r JOIN users u ON u.id = ${holder}
     WHERE r.version > 0
       AND r.expires_at > now() AND r.expires_at <= now() + make_interval(days => $2)
       AND r.expiry_reminded_for IS DISTINCT FROM r.expires_at
       AND NOT ${renewedBySubscriptionSql(TARGET_KEY_SQL[category](category === 'USER' ? 'u' : 'r'))}
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

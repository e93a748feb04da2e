/** The bot's raw SQL: premium records as the bot sees them. */
import { EXPIRY_DUE } from '../premium/sql';
import type { Category } from '../premium/types';

/** Per category: the record table, the key the bot knows it by, and how to reach that key. */
const SOURCES = {
  SERVER: { from: 'server_premiums r', key: 'r.guild_id' },
  USER: { from: 'user_premiums r JOIN users u ON u.id = r.user_id', key: 'u.provider_id' },
} as const;

/**
 * `version > 0`: a record locked by its first grant, not yet committed, is not a record. Its tier is the one
 * last announced (the one its version carries), with that tier's features.
 */
function selectRecords(category: Category, where: string): string {
  const { from, key } = SOURCES[category];
  return `SELECT r.id, ${key} AS key, r.expires_at, r.expires_at > now() AS is_premium, r.slots, r.version,
            r.tier, t.features
          FROM ${from} LEFT JOIN tiers t ON t.code = r.tier WHERE r.version > 0 AND ${where}`;
}

/** Guild $1's record. */
export const GUILD_RECORD = selectRecords('SERVER', 'r.guild_id = $1');

/** The USER record of user $1. */
export const USER_RECORD = selectRecords('USER', 'u.provider_id = $1');

const activeRecordsAfter = (category: Category) =>
  `${selectRecords(category, `${EXPIRY_DUE} AND r.expires_at > now() AND r.id > $1`)} ORDER BY r.id LIMIT $2`;

/** Per category: up to $2 active records after record id $1, in id order. */
export const ACTIVE_RECORDS_AFTER = {
  SERVER: activeRecordsAfter('SERVER'),
  USER: activeRecordsAfter('USER'),
};

/** An instant as JavaScript's `toISOString` writes it (milliseconds, truncated as `Date` truncates, UTC). */
const isoTime = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Per category, the JSON of an active record as the paged route answers it (`guildAnswer` /
 * `userAnswer`: an active record is premium, runs the tier its version announced, with that tier's
 * features): written by PostgreSQL, so that the stream's lines cost the API no encoding of their own.
 * test/server/bot/snapshot-stream.test.ts holds each line against the paged route's item.
 */
const SNAPSHOT_LINE = {
  SERVER: `json_build_object('guildId', r.guild_id, 'isPremium', true, 'premiumExpiresAt', ${isoTime('r.expires_at')},
             'tier', r.tier, 'features', COALESCE(CASE WHEN r.tier IS NOT NULL THEN t.features END, '{}'::jsonb),
             'slots', r.slots, 'version', r.version)::text`,
  USER: `json_build_object('providerId', u.provider_id, 'isPremium', true, 'premiumExpiresAt', ${isoTime('r.expires_at')},
           'tier', r.tier, 'features', COALESCE(CASE WHEN r.tier IS NOT NULL THEN t.features END, '{}'::jsonb),
           'version', r.version)::text`,
} as const;

/** The streamed snapshot's records of a category after record id $1, in id order, at most $2. */
const streamedRecords = (category: Category, columns: string) =>
  `SELECT r.id, ${columns} FROM ${SOURCES[category].from} LEFT JOIN tiers t ON t.code = r.tier
   WHERE r.version > 0 AND ${EXPIRY_DUE} AND r.expires_at > now() AND r.id > $1
   ORDER BY r.id LIMIT $2`;

const snapshotLinesAfter = (category: Category) =>
  `SELECT count(*)::int AS records, max(page.id)::text AS last_id,
          string_agg(page.line, E'\\n' ORDER BY page.id) AS lines
   FROM (${streamedRecords(category, `${SNAPSHOT_LINE[category]} AS line`)}) page`;

/**
 * Per category: up to $2 active records after record id $1, in id order, as one page of the streamed
 * snapshot: how many, the last id, and their lines (newline-separated JSON, null when none).
 */
export const SNAPSHOT_LINES_AFTER = {
  SERVER: snapshotLinesAfter('SERVER'),
  USER: snapshotLinesAfter('USER'),
};

/** An instant as `Date.getTime()` reads `toISOString`'s text: milliseconds since 1970, truncated. */
const epochMs = (column: string) =>
  `round(date_part('epoch', date_trunc('milliseconds', ${column})) * 1000)::bigint`;

/**
 * Per category, one page of the streamed snapshot's `rows` format as one JSON object: each record an
 * array (`[key, expiresAt in epoch ms, version, tier]`, and `slots` last for a guild) in record-id order,
 * and each running tier's features once (`features`, by tier code; a tier the catalog lacks has none).
 */
const snapshotRowsAfter = (category: Category) => {
  const slots = category === 'SERVER' ? ', page.slots' : '';
  return `WITH page AS (${streamedRecords(category, `${SOURCES[category].key} AS key, ${epochMs('r.expires_at')} AS expires_at, r.version, r.slots, r.tier, t.features`)})
   SELECT count(*)::int AS records, max(page.id)::text AS last_id,
          CASE WHEN count(*) > 0 THEN json_build_object('category', '${category}',
            'records', json_agg(json_build_array(page.key, page.expires_at, page.version, page.tier${slots}) ORDER BY page.id),
            'features', (SELECT COALESCE(json_object_agg(tier, features), '{}')
                         FROM (SELECT DISTINCT tier, features FROM page WHERE features IS NOT NULL) running))::text
          END AS lines
   FROM page`;
};

/** Per category: the same page as `SNAPSHOT_LINES_AFTER`, as one line of the `rows` format. */
export const SNAPSHOT_ROWS_AFTER = {
  SERVER: snapshotRowsAfter('SERVER'),
  USER: snapshotRowsAfter('USER'),
};

/**
 * The instant the streamed snapshot reads at: its transaction's `now()`, which "active" is held to. And
 * no parallel workers for its reads: a Gather launched a worker per keyset read (14 ms before its first
 * row at 200,000 users) for records one backend reads in a few milliseconds.
 */
export const SNAPSHOT_READ_AT = `SELECT now() AS read_at, set_config('max_parallel_workers_per_gather', '0', true)`;

/** A revoke's SQL: what is left of each grant, and the statements that shorten or end a record. */
import { DAYS_TABLES, perCategory, RECORD_TABLES, runningOf, tierChangesAt, tierDaysOf } from './sql';
import type { Category } from './types';

/**
 * Who owns which part of a record (docs/money-rules.md), tier by tier: what is left of a tier's days is the
 * tail of a queue of the record's grants of that tier in ledger order, each as long as what it added (less
 * what a revoke of it took). Time runs out oldest grant first, so what is left belongs to the newest grants:
 * walking back from the newest, each holds the lesser of its own length and what is not yet claimed by newer
 * ones. A grant whose days a transfer made before 012 moved away (the whole guild at once) holds nothing
 * here. `endsAtMs`: where the grant's days end now, its tier's end less what newer grants of it hold.
 * $1: the record's key.
 */
export const GRANT_REMAINDERS = perCategory((category) => {
  const { table, key } = RECORD_TABLES[category];
  return `
  WITH record AS (
    SELECT r.id FROM ${table} r WHERE r.${key} = $1::${category === 'USER' ? 'bigint' : 'text'} AND r.version > 0),
  days AS (${tierDaysOf(category, '(SELECT id FROM record)')}),
  left_now AS (
    SELECT d.tier, extract(epoch FROM d.ends_at) * 1000 AS ends_ms, GREATEST(extract(epoch FROM d.ends_at - GREATEST(now(),
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
    GREATEST(LEAST(q.length, COALESCE(l.ms, 0) - (q.through - q.length)), 0) AS "remainingMs", q.revoked,
    l.ends_ms - (q.through - q.length) AS "endsAtMs"
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

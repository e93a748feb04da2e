/** The grant statement: one round trip that grants a tier's days, writes the ledger row and the event. */
import { DAYS_TABLES, ledgerRowColumns, RECORD_TABLES, runningOf, tierChangesAt, tierDaysOf } from './sql';
import type { Category } from './types';

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

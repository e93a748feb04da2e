import { ledgerRowColumns, type LedgerRow } from './ledger';
import { RECORD_TABLES } from './records';
import type { Category } from './types';

/** The statement's parameters, in order. */
export interface GrantValues {
  providerId: string;
  idempotencyKey: string;
  guildId: string | null;
  planType: string | null;
  days: number;
  atLeastUntil: Date | null;
  eventId: string;
  source: string;
  actor: string;
  reason: string | null;
  orderId: number | null;
  /** The payment that pays the order: the statement marks the order paid with its grant. */
  paidBy: string | null;
  /** The ADD event's payload but for `expiresAt` and `version`, which the statement adds. */
  event: object;
  aggregateKey: string;
}

export type GrantRow = LedgerRow & { providerId: string; replayed: boolean };

/** USER premium raises its holder's expiry to the record's; SERVER premium its buyer's, by raiseBuyerExpiry. */
const RAISE_HOLDER = `,
  raised AS (
    UPDATE users SET premium_expires_at = GREATEST(premium_expires_at, after.expires_at), updated_at = now()
    FROM after WHERE users.id = (SELECT id FROM buyer))`;

function grantSql(category: Category): string {
  const { table, key } = RECORD_TABLES[category];
  const record = category === 'USER' ? '(SELECT id FROM buyer)' : '$3::text';
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
    FROM after),
  paid AS (
    UPDATE orders SET status = 'paid', payment_id = $14::text, paid_at = now(), next_check_at = NULL, updated_at = now()
    WHERE id = $11::bigint AND $14::text IS NOT NULL AND status = 'created' AND EXISTS (SELECT 1 FROM after))${category === 'USER' ? RAISE_HOLDER : ''}
  SELECT ${ledgerRowColumns('ledger')}, $1::text AS "providerId", false AS replayed FROM ledger
  UNION ALL
  SELECT prior.*, true FROM prior`;
}

const GRANT_SQL = { USER: grantSql('USER'), SERVER: grantSql('SERVER') };

/**
 * One statement, sent once the key's lock is held (idempotencyLock) and the record locked (claimRecord):
 * unless the key already made a change, it extends the record, writes the ledger row and the ADD event,
 * marks the order paid when a payment pays it, and for USER premium raises the holder's expiry. Nothing
 * at all when it refuses.
 * It answers with that ledger row, or with the one the key made before (`replayed`), or nothing when the
 * user is unknown.
 */
export function grantStatement(category: Category, values: GrantValues) {
  return {
    name: `grant-${category.toLowerCase()}`,
    text: GRANT_SQL[category],
    values: [
      values.providerId,
      values.idempotencyKey,
      values.guildId,
      values.planType,
      values.days,
      values.atLeastUntil,
      values.eventId,
      values.source,
      values.actor,
      values.reason,
      values.orderId,
      JSON.stringify(values.event),
      values.aggregateKey,
      values.paidBy,
    ],
  };
}

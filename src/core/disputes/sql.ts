import { DISPUTE_KEEPS_PREMIUM_REVOKED } from '../payments/sql';

/**
 * Every raw SQL string of the disputes (README.md for the words). `payment_disputes` holds one row per
 * dispute: its payment (`payment_id`; migration 072 fills the `order_id` / `charge_id` pair for an older
 * version), its stage, what Razorpay said of it, and the ledger rows
 * of its revoke (`revoke_ledger_id`) and of the grant that restored it (`restore_ledger_id`).
 */

export const DISPUTE_PROGRESS_SQL = 'SELECT status, opened FROM payment_disputes WHERE dispute_id = $1';

/**
 * $1 dispute id, $2 the payment, $3 status, $4 opened, $5–$9 the details, $10 the ledger row of the revoke
 * this delivery made (null: it made none, the one known stays).
 */
export const RECORD_DISPUTE_PROGRESS_SQL = `
INSERT INTO payment_disputes (dispute_id, payment_id, status, opened,
                              amount_paise, amount_deducted_paise, reason_code, phase, respond_by,
                              revoke_ledger_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (dispute_id) DO UPDATE
SET status = EXCLUDED.status, opened = payment_disputes.opened OR EXCLUDED.opened, updated_at = now(),
  revoke_ledger_id = COALESCE(EXCLUDED.revoke_ledger_id, payment_disputes.revoke_ledger_id),
  amount_paise = COALESCE(EXCLUDED.amount_paise, payment_disputes.amount_paise),
  amount_deducted_paise = COALESCE(EXCLUDED.amount_deducted_paise, payment_disputes.amount_deducted_paise),
  reason_code = COALESCE(EXCLUDED.reason_code, payment_disputes.reason_code),
  phase = COALESCE(EXCLUDED.phase, payment_disputes.phase),
  respond_by = COALESCE(EXCLUDED.respond_by, payment_disputes.respond_by)`;

/** $1 the payment, $2 the dispute to leave out. */
export const ANOTHER_DISPUTE_KEEPS_PREMIUM_REVOKED_SQL = `
SELECT 1 FROM payment_disputes
WHERE payment_id = $1 AND dispute_id <> $2
  AND ${DISPUTE_KEEPS_PREMIUM_REVOKED}
LIMIT 1`;

/** The revoke keys ($2 the key's prefix, then the dispute id) of payment $1's disputes. */
export const DISPUTE_REVOKE_KEYS_SQL = `
SELECT $2 || dispute_id AS key FROM payment_disputes WHERE payment_id = $1`;

/**
 * Links payment $1's disputes to their revokes that the revocation guard held and an operator released
 * since: those were written to the ledger later, by the release, under the key the dispute asked for ($2
 * the key's prefix, then the dispute id).
 */
export const LINK_RELEASED_REVOKES_SQL = `
UPDATE payment_disputes d SET revoke_ledger_id = g.id
FROM premium_grants g
WHERE d.payment_id = $1 AND d.revoke_ledger_id IS NULL
  AND g.kind = 'revoke' AND g.idempotency_key = $2 || d.dispute_id`;

/** The newest revoke of a dispute of payment $1 that took days and that no grant restored yet. */
export const UNRESTORED_REVOKE_SQL = `
SELECT d.dispute_id AS "disputeId", g.id AS "ledgerId", g.days, g.guild_id AS "guildId", g.idempotency_key AS "idempotencyKey",
  g.tier
FROM payment_disputes d JOIN premium_grants g ON g.id = d.revoke_ledger_id
WHERE d.payment_id = $1 AND d.restore_ledger_id IS NULL AND g.days < 0
ORDER BY g.id DESC
LIMIT 1`;

/** $1 the dispute whose revoke was restored, $2 the restoring grant's ledger row. */
export const RECORD_RESTORE_SQL = 'UPDATE payment_disputes SET restore_ledger_id = $2 WHERE dispute_id = $1';

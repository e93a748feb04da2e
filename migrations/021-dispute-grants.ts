import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

const LEDGER_COLUMNS = [
  // The dispute's revoke: kind `revoke`, key `dispute:<dispute id>`.
  { column: 'revoke_ledger_id', kind: 'revoke', key: "'dispute:' || d.dispute_id" },
  // The grant that restored what it took once a dispute of the payment was won: key `…:won`.
  { column: 'restore_ledger_id', kind: 'grant', key: "'dispute:' || d.dispute_id || ':won'" },
] as const;

/**
 * A dispute's premium in columns of `payment_disputes` (src/core/disputes/README.md), no longer found by
 * matching ledger idempotency keys (`LIKE 'dispute:%'`, a `:won` suffix): `revoke_ledger_id`, the ledger
 * row of its revoke, and `restore_ledger_id`, the grant that restored it. The keys stay as they are (they
 * still keep each from being written twice). Filled from the ledger in batches of its ids; a revoke the
 * revocation guard still holds has no ledger row yet and is linked when it is restored after its release.
 * Online (docs/migrations.md): nullable columns, foreign keys NOT VALID then validated.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE payment_disputes
       ADD COLUMN IF NOT EXISTS revoke_ledger_id bigint,
       ADD COLUMN IF NOT EXISTS restore_ledger_id bigint`,
  );
  for (const { column, kind, key } of LEDGER_COLUMNS) {
    await addConstraintOnline(
      sequelize,
      'payment_disputes',
      `payment_disputes_${column}_fkey`,
      `FOREIGN KEY (${column}) REFERENCES premium_grants (id)`,
    );
    await backfillInBatches(
      sequelize,
      'premium_grants',
      `UPDATE payment_disputes d SET ${column} = g.id
       FROM premium_grants g
       WHERE g.id BETWEEN $1 AND $2 AND g.kind = '${kind}' AND g.idempotency_key = ${key}
         AND d.${column} IS NULL`,
    );
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE payment_disputes
       DROP COLUMN IF EXISTS restore_ledger_id,
       DROP COLUMN IF EXISTS revoke_ledger_id`,
  );
};

import type { Migration } from '../src/core/db/migrator';
import {
  addConstraintOnline,
  alterBriefly,
  backfillInBatches,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

const RECORDS = [
  { table: 'user_premiums', ledgerRow: "g.category = 'USER' AND g.user_id = r.user_id" },
  { table: 'server_premiums', ledgerRow: "g.category = 'SERVER' AND g.guild_id = r.guild_id" },
] as const;

/**
 * The expiry job costs what is due, not what history holds:
 * - a revoke that ends a record now marks its expiry announced itself (it sent its own REMOVE), so the
 *   job no longer asks the ledger; records ended that way before are marked here, in batches;
 * - `*_expiry_due`: the job's own predicate (`version > 0` too), replacing `*_expiry_unannounced`;
 * - a record's announced version is never ahead of the record (checked NOT VALID, then validated).
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const { table, ledgerRow } of RECORDS) {
    await backfillInBatches(
      sequelize,
      table,
      `UPDATE ${table} r SET expiry_announced_version = r.version
       WHERE r.id BETWEEN $1 AND $2 AND r.version > 0 AND r.expires_at <= now()
         AND r.expiry_announced_version IS DISTINCT FROM r.version
         AND EXISTS (SELECT 1 FROM premium_grants g
                     WHERE g.kind = 'revoke' AND ${ledgerRow} AND g.version = r.version
                       AND g.expires_after <= g.created_at)`,
    );
    await createIndexConcurrently(
      sequelize,
      `${table}_expiry_due`,
      `ON ${table} (expires_at) WHERE version > 0 AND expiry_announced_version IS DISTINCT FROM version`,
    );
    await dropIndexConcurrently(sequelize, `${table}_expiry_unannounced`);
    await addConstraintOnline(
      sequelize,
      table,
      `${table}_expiry_announced_not_ahead`,
      'CHECK (expiry_announced_version <= version)',
    );
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const { table } of RECORDS) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} DROP CONSTRAINT ${table}_expiry_announced_not_ahead`);
    await createIndexConcurrently(
      sequelize,
      `${table}_expiry_unannounced`,
      `ON ${table} (expires_at) WHERE expiry_announced_version IS DISTINCT FROM version`,
    );
    await dropIndexConcurrently(sequelize, `${table}_expiry_due`);
  }
};

import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, backfillInBatches } from '../src/core/db/online-migration';

/**
 * The grants whose days belong to a bundle's binding (docs/bundles.md, "Days keep their owner"): the
 * bind's, each renewal's, what a share take left, what a won dispute gave back. A transfer never moves
 * them, and a take of the binding finds them here. Filled for the grants made before: those the bindings
 * point at now, and those whose idempotency key names their binding (renewals, rests, won disputes'
 * restores). A bind's grant a take has replaced since was revoked by it and carries nothing any more.
 */
export const up: Migration = async ({ context: sequelize }) => {
  // The foreign keys lock the ledger and the bindings a moment: briefly, as changes of those tables.
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS bundle_grants (
      grant_id    bigint PRIMARY KEY REFERENCES premium_grants (id),
      binding_id  bigint NOT NULL REFERENCES bundle_bindings (id)
    );
    CREATE INDEX IF NOT EXISTS bundle_grants_by_binding ON bundle_grants (binding_id)`,
  );
  await backfillInBatches(
    sequelize,
    'bundle_bindings',
    `INSERT INTO bundle_grants (grant_id, binding_id)
     SELECT held.grant_id, bb.id FROM bundle_bindings bb
     CROSS JOIN LATERAL (VALUES (bb.grant_id), (bb.restore_grant_id)) AS held (grant_id)
     WHERE bb.id BETWEEN $1 AND $2 AND held.grant_id IS NOT NULL
     ON CONFLICT (grant_id) DO NOTHING`,
  );
  await backfillInBatches(
    sequelize,
    'premium_grants',
    `INSERT INTO bundle_grants (grant_id, binding_id)
     SELECT g.id, bb.id FROM premium_grants g
     JOIN bundle_bindings bb ON bb.id = substring(g.idempotency_key
       FROM '(?:^|:)bundle-binding:([0-9]+):(?:charge:|rest$|won$)')::bigint
     WHERE g.id BETWEEN $1 AND $2 AND g.kind = 'grant' AND g.idempotency_key LIKE '%bundle-binding:%'
     ON CONFLICT (grant_id) DO NOTHING`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE bundle_grants');
};

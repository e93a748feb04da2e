import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

/**
 * Bundles' money (docs/bundles.md). A binding whose revoke the revocation guard holds stays bound until an
 * operator releases it: `held_revoke_id` names the held revoke, `held_share_days` the days it is to take
 * (null: all that is left, and the guild is unbound on release). `restore_grant_id` is the grant a won
 * dispute of part of the bundle's payment gave back to the guild, taken back with the binding.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE bundle_bindings
       ADD COLUMN IF NOT EXISTS held_revoke_id bigint,
       ADD COLUMN IF NOT EXISTS held_share_days integer,
       ADD COLUMN IF NOT EXISTS restore_grant_id bigint`,
  );
  await addConstraintOnline(
    sequelize,
    'bundle_bindings',
    'bundle_bindings_held_revoke_fkey',
    'FOREIGN KEY (held_revoke_id) REFERENCES held_revokes (id)',
  );
  await addConstraintOnline(
    sequelize,
    'bundle_bindings',
    'bundle_bindings_restore_grant_fkey',
    'FOREIGN KEY (restore_grant_id) REFERENCES premium_grants (id)',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`ALTER TABLE bundle_bindings DROP COLUMN restore_grant_id,
    DROP COLUMN held_share_days, DROP COLUMN held_revoke_id`);
};

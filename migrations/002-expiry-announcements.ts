import type { Migration } from '../src/core/db/migrator';

/**
 * The outbox is a queue: every row is inserted and soon deleted. Vacuuming and analysing it after a
 * fixed number of changes, not a fraction of its size, keeps the relay's claim an index scan over live
 * rows instead of a sort of a stale or bloated table.
 *
 * `expiry_announced_version` is the record version whose expiry was announced (or needed no
 * announcement), so each expiry is announced once and a record extended and expiring again is
 * announced again. The partial indexes keep the expiry job's scan to records not yet announced, and
 * housekeeping's scan to dead outbox rows.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE user_premiums ADD COLUMN expiry_announced_version integer;
    ALTER TABLE server_premiums ADD COLUMN expiry_announced_version integer;
    CREATE INDEX user_premiums_expiry_unannounced ON user_premiums (expires_at)
      WHERE expiry_announced_version IS DISTINCT FROM version;
    CREATE INDEX server_premiums_expiry_unannounced ON server_premiums (expires_at)
      WHERE expiry_announced_version IS DISTINCT FROM version;
    CREATE INDEX outbox_dead ON outbox (dead_at) WHERE dead_at IS NOT NULL;
    ALTER TABLE outbox SET (
      autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
      autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000
    );
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE outbox RESET (
      autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold,
      autovacuum_analyze_scale_factor, autovacuum_analyze_threshold
    );
    DROP INDEX outbox_dead;
    ALTER TABLE server_premiums DROP COLUMN expiry_announced_version;
    ALTER TABLE user_premiums DROP COLUMN expiry_announced_version;
  `);
};

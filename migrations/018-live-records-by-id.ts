import type { Migration } from '../src/core/db/migrator';
import { createIndexConcurrently, dropIndexConcurrently } from '../src/core/db/online-migration';

const TABLES = ['user_premiums', 'server_premiums'] as const;

/**
 * The bots' snapshot pages through active records in id order. Most user records of a big bot ran out
 * long ago; `*_live_by_id` holds only records whose expiry is not yet announced (every active one), so a
 * page no longer walks the expired ones (docs/migrations.md: built CONCURRENTLY).
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const table of TABLES) {
    await createIndexConcurrently(
      sequelize,
      `${table}_live_by_id`,
      `ON ${table} (id) WHERE version > 0 AND expiry_announced_version IS DISTINCT FROM version`,
    );
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const table of TABLES) await dropIndexConcurrently(sequelize, `${table}_live_by_id`);
};

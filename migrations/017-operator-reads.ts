import type { Migration } from '../src/core/db/migrator';
import { createIndexConcurrently, dropIndexConcurrently } from '../src/core/db/online-migration';

const INDEXES = [
  // `premium orders list`: newest first, a keyset page at a time.
  ['orders_created', 'ON orders (created_at, id)'],
  // The ledger of `premium orders show`: the grant and revokes of one order (the unique index covers grants only).
  ['premium_grants_order', 'ON premium_grants (order_id, created_at, id) WHERE order_id IS NOT NULL'],
  // `premium users find`: a piece of a username, anywhere in it (LIKE '%…%' of three characters or more).
  ['users_username_trigrams', 'ON users USING gin (lower(username) gin_trgm_ops)'],
] as const;

/**
 * Indexes for the operator's reads, which page (docs/migrations.md: built CONCURRENTLY). `pg_trgm` ships
 * with PostgreSQL and is a trusted extension: the database's owner may create it, no superuser needed.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  for (const [name, definition] of INDEXES) await createIndexConcurrently(sequelize, name, definition);
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const [name] of INDEXES) await dropIndexConcurrently(sequelize, name);
  await sequelize.query('DROP EXTENSION IF EXISTS pg_trgm');
};

import type { Migration } from '../src/core/db/migrator';
import { createIndexConcurrently, dropIndexConcurrently } from '../src/core/db/online-migration';

const INDEXES = [
  // The console's Sales and `premium report sales`: paid orders (refunded and disputed ones too), newest first.
  ['orders_paid', 'ON orders (paid_at, id) WHERE paid_at IS NOT NULL'],
  // The same page's subscription charges, newest first.
  ['subscription_charges_created', 'ON subscription_charges (created_at, id)'],
] as const;

/** Indexes for the newest sales, a keyset page at a time (docs/migrations.md: built CONCURRENTLY). */
export const up: Migration = async ({ context: sequelize }) => {
  for (const [name, definition] of INDEXES) await createIndexConcurrently(sequelize, name, definition);
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const [name] of INDEXES) await dropIndexConcurrently(sequelize, name);
};

import type { Migration } from '../src/core/db/migrator';
import {
  alterBriefly,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

const LIVE = `status IN ('created', 'authenticated', 'active', 'pending', 'halted', 'paused')`;

/**
 * The reconciler's schedule, read in keyset pages (docs/migrations.md: written to run beside a live
 * service):
 * - subscriptions carry their next check like orders (`next_check_at`, `checks_made`); existing and new
 *   rows are due at once (a constant default: no table rewrite);
 * - `(next_check_at, id)` indexes over the rows still checked, in the order a run takes them, so what a run
 *   did not reach (the oldest due) comes first in the next; the orders' index replaces `orders_next_check`.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE subscriptions
       ADD COLUMN IF NOT EXISTS next_check_at timestamptz NOT NULL DEFAULT now(),
       ADD COLUMN IF NOT EXISTS checks_made integer NOT NULL DEFAULT 0`,
  );
  await createIndexConcurrently(
    sequelize,
    'subscriptions_next_check',
    `ON subscriptions (next_check_at, id) WHERE ${LIVE}`,
  );
  await createIndexConcurrently(
    sequelize,
    'orders_next_check_page',
    `ON orders (next_check_at, id) WHERE status = 'created'`,
  );
  await dropIndexConcurrently(sequelize, 'orders_next_check');
};

export const down: Migration = async ({ context: sequelize }) => {
  await createIndexConcurrently(
    sequelize,
    'orders_next_check',
    `ON orders (next_check_at) WHERE status = 'created'`,
  );
  await dropIndexConcurrently(sequelize, 'orders_next_check_page');
  await dropIndexConcurrently(sequelize, 'subscriptions_next_check');
  await alterBriefly(
    sequelize,
    'ALTER TABLE subscriptions DROP COLUMN next_check_at, DROP COLUMN checks_made',
  );
};

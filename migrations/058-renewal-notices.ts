import type { Migration } from '../src/core/db/migrator';
import {
  alterBriefly,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

/**
 * The buyer's pre-debit notice (docs/buyer-messages.md, `renewal_upcoming`): the charge time a
 * subscription's notice was last queued for, so that the reminders job queues one per charge, and
 * an index on the charge times of the subscriptions that will be charged. A nullable column (no
 * rewrite) and an index built concurrently: neither stops writes.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    'ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS renewal_noticed_charge_at timestamptz',
  );
  await createIndexConcurrently(
    sequelize,
    'subscriptions_upcoming_charges',
    `ON subscriptions (charge_at) WHERE status IN ('authenticated', 'active') AND NOT cancel_at_cycle_end`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await dropIndexConcurrently(sequelize, 'subscriptions_upcoming_charges');
  await alterBriefly(sequelize, 'ALTER TABLE subscriptions DROP COLUMN IF EXISTS renewal_noticed_charge_at');
};

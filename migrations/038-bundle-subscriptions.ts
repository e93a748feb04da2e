import type { Migration } from '../src/core/db/migrator';
import {
  addConstraintOnline,
  alterBriefly,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

/** The subscriptions' check that a SERVER subscription names a guild (unnamed in 005), found by its text. */
const GUILD_CHECK = `SELECT conname FROM pg_constraint WHERE conrelid = 'subscriptions'::regclass AND contype = 'c'
  AND pg_get_constraintdef(oid) LIKE '%guild_id IS NOT NULL%' AND conname <> 'subscriptions_guild_or_bundle'`;

/**
 * A bundle plan sold as a renewing subscription (docs/bundles.md). `subscriptions.slots` says a
 * subscription is a bundle's (it may name no guild: its slots are bound later); `bundles.subscription_id`
 * is the subscription whose first charge made the bundle and whose renewals extend it, at most one each.
 * The column default is a constant, so adding it rewrites nothing.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS slots integer NOT NULL DEFAULT 1;
     ALTER TABLE bundles ADD COLUMN IF NOT EXISTS subscription_id bigint`,
  );
  await addConstraintOnline(
    sequelize,
    'subscriptions',
    'subscriptions_guild_or_bundle',
    `CHECK ((category = 'SERVER') = (guild_id IS NOT NULL) OR (category = 'SERVER' AND slots > 1))`,
  );
  const [found] = (await sequelize.query(GUILD_CHECK))[0] as { conname: string }[];
  if (found) await alterBriefly(sequelize, `ALTER TABLE subscriptions DROP CONSTRAINT ${found.conname}`);
  await addConstraintOnline(
    sequelize,
    'bundles',
    'bundles_subscription_fkey',
    'FOREIGN KEY (subscription_id) REFERENCES subscriptions (id)',
  );
  await createIndexConcurrently(sequelize, 'bundles_subscription_id', 'ON bundles (subscription_id)', {
    unique: true,
  });
};

export const down: Migration = async ({ context: sequelize }) => {
  await dropIndexConcurrently(sequelize, 'bundles_subscription_id');
  await sequelize.query(`
    ALTER TABLE bundles DROP COLUMN subscription_id;
    ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_check CHECK ((category = 'SERVER') = (guild_id IS NOT NULL)) NOT VALID;
    ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_guild_or_bundle, DROP COLUMN slots;
  `);
};

import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

const SOURCES = `'checkout', 'webhook', 'reconcile', 'manual', 'subscription', 'code', 'transfer'`;

/** The orders' check that a SERVER order names a guild (unnamed in 001), found by its text. */
const GUILD_CHECK = `SELECT conname FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'c'
  AND pg_get_constraintdef(oid) LIKE '%guild_id IS NOT NULL%'`;

/**
 * Bundles (docs/bundles.md): a paid plan with more than one slot gives its buyer a bundle, whose slots
 * they bind to guilds they manage. A binding points at the grant (source `bundle`) that put the rest of
 * the bundle on the guild, and at the revoke that took it back when it was unbound or the bundle's
 * payment was refunded or lost to a dispute. At most one live binding of a guild per bundle; the count of
 * live bindings is kept under the bundle row's lock, never above its slots.
 */
export const up: Migration = async ({ context: sequelize }) => {
  // The ledger learns the source `bundle`: the new check replaces the old one, checked online.
  await addConstraintOnline(
    sequelize,
    'premium_grants',
    'premium_grants_source_with_bundle',
    `CHECK (source IN (${SOURCES}, 'bundle'))`,
  );
  await alterBriefly(
    sequelize,
    'ALTER TABLE premium_grants DROP CONSTRAINT IF EXISTS premium_grants_source_check',
  );
  // Their foreign keys lock orders, users and the ledger a moment: briefly, as changes of those tables.
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS bundles (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      order_id        bigint UNIQUE REFERENCES orders (id),
      buyer_user_id   bigint NOT NULL REFERENCES users (id),
      plan_code       text NOT NULL,
      tier            text NOT NULL,
      slots           integer NOT NULL CHECK (slots >= 2),
      days            integer NOT NULL CHECK (days > 0),
      ends_at         timestamptz NOT NULL,
      status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
      created_at      timestamptz NOT NULL DEFAULT now(),
      updated_at      timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS bundles_by_buyer ON bundles (buyer_user_id, id)`,
  );
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS bundle_bindings (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      bundle_id        bigint NOT NULL REFERENCES bundles (id),
      guild_id         text NOT NULL CHECK (guild_id ~ '^[0-9]{1,20}$'),
      grant_id         bigint NOT NULL UNIQUE REFERENCES premium_grants (id),
      bound_at         timestamptz NOT NULL DEFAULT now(),
      unbound_at       timestamptz,
      revoke_grant_id  bigint REFERENCES premium_grants (id),
      unbound_by       text
    );
    CREATE UNIQUE INDEX IF NOT EXISTS bundle_bindings_live ON bundle_bindings (bundle_id, guild_id) WHERE unbound_at IS NULL;
    CREATE INDEX IF NOT EXISTS bundle_bindings_by_guild ON bundle_bindings (guild_id) WHERE unbound_at IS NULL`,
  );
  // A bundle order (slots > 1) is a SERVER order that may name no guild: its slots are bound later.
  const [found] = (await sequelize.query(GUILD_CHECK))[0] as { conname: string }[];
  const drop = found ? `DROP CONSTRAINT ${found.conname},` : '';
  await alterBriefly(
    sequelize,
    `ALTER TABLE orders ${drop} ADD CONSTRAINT orders_guild_check CHECK (
       (category = 'SERVER') = (guild_id IS NOT NULL) OR (category = 'SERVER' AND slots > 1)) NOT VALID`,
  );
  await sequelize.query('ALTER TABLE orders VALIDATE CONSTRAINT orders_guild_check');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders DROP CONSTRAINT orders_guild_check,
      ADD CONSTRAINT orders_check CHECK ((category = 'SERVER') = (guild_id IS NOT NULL));
    DROP TABLE bundle_bindings;
    DROP TABLE bundles;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_check CHECK (source IN (${SOURCES})) NOT VALID;
    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_with_bundle;
  `);
};

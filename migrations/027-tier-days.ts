import type { Migration } from '../src/core/db/migrator';
import {
  alterBriefly,
  backfillInBatches,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

/** The default tier, the tier of every day sold before the catalog (026 seeded it; DEFAULT_TIER in premium/types.ts). */
const DEFAULT_TIER = 'premium';

/** Each record table and the table of its days per tier. */
const RECORDS = [
  { table: 'user_premiums', days: 'user_premium_days' },
  { table: 'server_premiums', days: 'server_premium_days' },
] as const;

/**
 * Stacked tier days (docs/money-rules.md, "Tiers"): a record keeps its days per tier, the highest tier
 * running first.
 *
 * - `user_premium_days` / `server_premium_days`: the end of each tier's days on a record. The record's
 *   `expires_at` stays, the end of its last tier; every record gets one row of the default tier ending at
 *   its `expires_at`.
 * - On the records, `tier`: the running tier the bot was last told of (null when not premium), and
 *   `tier_changes_at`: when the running tier next ends over a lower tier with days (the expiry job's
 *   UPDATE, found through `*_tier_changes`).
 * - `premium_grants.tier`: the tier whose days a grant or revoke moved.
 * - `user_tier_expiries`: a user's premium per tier, as `users.premium_expires_at` is overall (the status
 *   route's `tiers`).
 *
 * No foreign key names `tiers`: every grant would lock the same few catalog rows (FOR KEY SHARE), which
 * concurrent grants turn into multixacts. The grant checks its tier in its own statement, and a tier
 * once sold is never deleted (its ledger rows name it).
 *
 * The code before this migration runs on beside it for a while (docs/migrations.md) and moves a record's
 * `expires_at` without a word of tiers. `tier_days_written` tells the two apart: the tier-aware code bumps
 * it with every expiry it writes, and a change of `expires_at` that leaves it alone (the old code, or SQL
 * written by hand) is taken by `premium_days_without_tiers` as the default tier's: the record's days all
 * become the default tier's, ending at the new expiry. Users' `premium_expires_at` needs no trigger: the
 * status read gives the days no tier row accounts for to the lowest tier listed (src/core/users).
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const { table, days } of RECORDS) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS ${days} (
        record_id  bigint NOT NULL REFERENCES ${table} (id) ON DELETE CASCADE,
        tier       text NOT NULL,
        ends_at    timestamptz NOT NULL,
        PRIMARY KEY (record_id, tier)
      )`);
    await alterBriefly(
      sequelize,
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS tier text,
         ADD COLUMN IF NOT EXISTS tier_changes_at timestamptz,
         ADD COLUMN IF NOT EXISTS tier_days_written integer NOT NULL DEFAULT 0`,
    );
  }
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS user_tier_expiries (
      user_id     bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      tier        text NOT NULL,
      expires_at  timestamptz NOT NULL,
      PRIMARY KEY (user_id, tier)
    )`);
  await alterBriefly(
    sequelize,
    `ALTER TABLE premium_grants ADD COLUMN IF NOT EXISTS tier text NOT NULL DEFAULT '${DEFAULT_TIER}'`,
  );

  // $1 of TG_ARGV: the record's days table. Runs only for writes that did not bump tier_days_written.
  await sequelize.query(`
    CREATE OR REPLACE FUNCTION premium_days_without_tiers() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      EXECUTE format('INSERT INTO %I (record_id, tier, ends_at) VALUES ($1, %L, $2)
                      ON CONFLICT (record_id, tier) DO UPDATE SET ends_at = EXCLUDED.ends_at', TG_ARGV[0], '${DEFAULT_TIER}')
        USING NEW.id, NEW.expires_at;
      EXECUTE format('UPDATE %I SET ends_at = now() WHERE record_id = $1 AND tier <> %L AND ends_at > now()',
                     TG_ARGV[0], '${DEFAULT_TIER}')
        USING NEW.id;
      EXECUTE format('UPDATE %I SET tier = CASE WHEN expires_at > now() THEN %L END, tier_changes_at = NULL
                      WHERE id = $1', TG_TABLE_NAME, '${DEFAULT_TIER}')
        USING NEW.id;
      RETURN NULL;
    END $$`);
  for (const { table, days } of RECORDS) {
    await alterBriefly(
      sequelize,
      `CREATE OR REPLACE TRIGGER ${table}_inserted_without_tiers
         AFTER INSERT ON ${table} FOR EACH ROW
         WHEN (NEW.version > 0 AND NEW.tier_days_written = 0)
         EXECUTE FUNCTION premium_days_without_tiers('${days}');
       CREATE OR REPLACE TRIGGER ${table}_updated_without_tiers
         AFTER UPDATE OF expires_at ON ${table} FOR EACH ROW
         WHEN (NEW.tier_days_written = OLD.tier_days_written AND NEW.expires_at IS DISTINCT FROM OLD.expires_at)
         EXECUTE FUNCTION premium_days_without_tiers('${days}')`,
    );
    await backfillInBatches(
      sequelize,
      table,
      `WITH days AS (
         INSERT INTO ${days} (record_id, tier, ends_at)
         SELECT id, '${DEFAULT_TIER}', expires_at FROM ${table} WHERE id BETWEEN $1 AND $2 AND version > 0
         ON CONFLICT (record_id, tier) DO NOTHING)
       UPDATE ${table} SET tier = '${DEFAULT_TIER}'
       WHERE id BETWEEN $1 AND $2 AND version > 0 AND expires_at > now() AND tier IS NULL`,
    );
    await createIndexConcurrently(
      sequelize,
      `${table}_tier_changes`,
      `ON ${table} (tier_changes_at) WHERE tier_changes_at IS NOT NULL`,
    );
  }
  await backfillInBatches(
    sequelize,
    'users',
    `INSERT INTO user_tier_expiries (user_id, tier, expires_at)
     SELECT id, '${DEFAULT_TIER}', premium_expires_at FROM users
     WHERE id BETWEEN $1 AND $2 AND premium_expires_at > now()
     ON CONFLICT (user_id, tier) DO NOTHING`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const { table, days } of RECORDS) {
    await dropIndexConcurrently(sequelize, `${table}_tier_changes`);
    await alterBriefly(
      sequelize,
      `DROP TRIGGER IF EXISTS ${table}_inserted_without_tiers ON ${table};
       DROP TRIGGER IF EXISTS ${table}_updated_without_tiers ON ${table};
       ALTER TABLE ${table} DROP COLUMN IF EXISTS tier, DROP COLUMN IF EXISTS tier_changes_at,
         DROP COLUMN IF EXISTS tier_days_written`,
    );
    await sequelize.query(`DROP TABLE IF EXISTS ${days}`);
  }
  await sequelize.query('DROP FUNCTION IF EXISTS premium_days_without_tiers()');
  await sequelize.query('DROP TABLE IF EXISTS user_tier_expiries');
  await sequelize.query('ALTER TABLE premium_grants DROP COLUMN IF EXISTS tier');
};

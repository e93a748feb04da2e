import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';
import { parsePlanIds } from '../src/core/plan-ids';
import { parsePlanPrices } from '../src/core/plans';

/** What the service sold before the catalog, when PLAN_PRICES is not set (the configuration's default). */
const SEED_PRICES = 'Monthly=199,Yearly=1999';

/**
 * The catalog (docs/catalog.md): tiers and the plans that price them, as rows a seller changes at run
 * time. The default tier `premium` is the tier of everything sold before; the seed's Monthly and Yearly
 * become plans of it, priced from PLAN_PRICES (and their Razorpay plans from RAZORPAY_PLAN_IDS) once, so a
 * running deployment keeps its prices. Orders, subscriptions and code batches keep the tier they were sold
 * with, and their plan_type holds a plan code now, so the old CHECKs naming three plans go.
 */
export const up: Migration = async ({ context: sequelize }) => {
  const prices = parsePlanPrices(process.env.PLAN_PRICES || SEED_PRICES);
  const planIds = parsePlanIds(process.env.RAZORPAY_PLAN_IDS ?? '');
  await sequelize.query(`
    CREATE TABLE tiers (
      code        text PRIMARY KEY CHECK (code ~ '^[a-z0-9][a-z0-9-]{0,31}$'),
      name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
      rank        integer NOT NULL UNIQUE CHECK (rank >= 0),
      features    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(features) = 'object'),
      created_at  timestamptz NOT NULL DEFAULT now(),
      updated_at  timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO tiers (code, name, rank) VALUES ('premium', 'Premium', 1);

    CREATE TABLE plans (
      code              text PRIMARY KEY CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$' AND code <> 'Custom'),
      name              text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
      tier              text NOT NULL REFERENCES tiers (code),
      scope             text NOT NULL CHECK (scope IN ('USER', 'SERVER', 'ANY')),
      days              integer NOT NULL CHECK (days BETWEEN 1 AND 3650),
      price_paise       integer NOT NULL CHECK (price_paise >= 100),
      currency          text NOT NULL DEFAULT 'INR' CHECK (currency = 'INR'),
      slots             integer NOT NULL DEFAULT 1 CHECK (slots BETWEEN 1 AND 100 AND (slots = 1 OR scope = 'SERVER')),
      renews            boolean NOT NULL DEFAULT false,
      razorpay_plan_id  text CHECK (razorpay_plan_id IS NULL OR renews),
      trial_days        integer NOT NULL DEFAULT 0 CHECK (trial_days BETWEEN 0 AND 365 AND (trial_days = 0 OR renews)),
      status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
      position          integer NOT NULL,
      created_at        timestamptz NOT NULL DEFAULT now(),
      updated_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX plans_by_tier ON plans (tier);
  `);
  await sequelize.query(
    `INSERT INTO plans (code, name, tier, scope, days, price_paise, renews, razorpay_plan_id, position)
     VALUES ('Monthly', 'Monthly', 'premium', 'ANY', 30, $1, true, $2, 1),
            ('Yearly', 'Yearly', 'premium', 'ANY', 365, $3, true, $4, 2)`,
    { bind: [prices.Monthly * 100, planIds.Monthly ?? null, prices.Yearly * 100, planIds.Yearly ?? null] },
  );
  for (const table of ['orders', 'subscriptions', 'premium_code_batches']) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_plan_type_check`);
    await alterBriefly(
      sequelize,
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS tier text NOT NULL DEFAULT 'premium'`,
    );
  }
  await alterBriefly(
    sequelize,
    'ALTER TABLE orders ADD COLUMN IF NOT EXISTS slots integer NOT NULL DEFAULT 1',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const table of ['orders', 'subscriptions', 'premium_code_batches']) {
    await sequelize.query(`ALTER TABLE ${table} DROP COLUMN tier`);
  }
  await sequelize.query('ALTER TABLE orders DROP COLUMN slots');
  await sequelize.query('DROP TABLE plans; DROP TABLE tiers');
};

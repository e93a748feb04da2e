import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

// As migration 030 left them (it added `bundle`).
const SOURCES = `'checkout', 'webhook', 'reconcile', 'manual', 'subscription', 'code', 'transfer', 'bundle'`;

/**
 * Trials (docs/trials.md): a renewing plan's `trialDays` free before its first charge. A subscription
 * keeps the trial days it asked Razorpay for (0: none, its first charge at once or at the target's
 * expiry). `trials` holds one row per subscription whose mandate was authorised with a trial asked for:
 * `running` (premium granted to the first charge), `converted` (the first charge paid), `cancelled` (the
 * subscription ended before it), or `refused` (the buyer, the guild or the payment instrument had a trial
 * already: no premium, `refused_reason` says why, and the subscription is cancelled at Razorpay).
 * `instrument_hash` is an HMAC-SHA256 of the authorisation payment's card fingerprint or UPI VPA, never
 * the instrument itself. `ending_announced_at` makes `*_PREMIUM_TRIAL_ENDING` once per trial.
 */
export const up: Migration = async ({ context: sequelize }) => {
  // The ledger learns the source `trial`: the new check replaces the old one, checked online.
  await addConstraintOnline(
    sequelize,
    'premium_grants',
    'premium_grants_source_with_trial',
    `CHECK (source IN (${SOURCES}, 'trial'))`,
  );
  await alterBriefly(
    sequelize,
    'ALTER TABLE premium_grants DROP CONSTRAINT IF EXISTS premium_grants_source_with_bundle',
  );
  await alterBriefly(
    sequelize,
    `ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS trial_days integer NOT NULL DEFAULT 0
       CHECK (trial_days BETWEEN 0 AND 365)`,
  );
  await sequelize.query(`
    CREATE TABLE trials (
      id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subscription_id      bigint NOT NULL UNIQUE REFERENCES subscriptions (id),
      buyer_user_id        bigint NOT NULL REFERENCES users (id),
      guild_id             text,
      instrument_hash      text,
      days                 integer NOT NULL CHECK (days > 0),
      first_charge_at      timestamptz NOT NULL,
      status               text NOT NULL CHECK (status IN ('running', 'converted', 'cancelled', 'refused')),
      refused_reason       text CHECK ((status = 'refused') = (refused_reason IS NOT NULL)),
      grant_id             bigint,
      ending_announced_at  timestamptz,
      started_at           timestamptz NOT NULL DEFAULT now(),
      converted_at         timestamptz,
      cancelled_at         timestamptz,
      processor_cancelled_at timestamptz
    );
    CREATE INDEX trials_by_buyer ON trials (buyer_user_id);
    CREATE INDEX trials_by_guild ON trials (guild_id) WHERE guild_id IS NOT NULL;
    CREATE INDEX trials_by_instrument ON trials (instrument_hash) WHERE instrument_hash IS NOT NULL;
    CREATE INDEX trials_ending ON trials (first_charge_at) WHERE status = 'running' AND ending_announced_at IS NULL;
    CREATE INDEX trials_refused_live ON trials (id) WHERE status = 'refused' AND processor_cancelled_at IS NULL;
    CREATE INDEX trials_started ON trials (started_at);
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`DROP TABLE trials; ALTER TABLE subscriptions DROP COLUMN trial_days;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_with_bundle CHECK (source IN (${SOURCES})) NOT VALID;
    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_with_trial`);
};

import type { Migration } from '../src/core/db/migrator';

/**
 * Subscriptions (docs/design.md, "Subscriptions"): one row per Razorpay subscription, with its buyer, target,
 * plan and the processor's status and current cycle; one row per charge (a captured payment of the
 * subscription), unique by payment id, pointing at the grant it made.
 *
 * `target_key` is the outbox's aggregate key (`user:<providerId>` / `guild:<guildId>`): a partial unique
 * index allows one live subscription per target. The ledger's source list becomes the whole list of docs/events.md
 * (other issues add `code` and `transfer`; listing them all keeps the migrations independent of order).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE subscriptions (
      id                        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      processor_subscription_id text NOT NULL UNIQUE,
      processor_plan_id         text NOT NULL,
      buyer_user_id             bigint NOT NULL REFERENCES users (id),
      category                  text NOT NULL CHECK (category IN ('USER', 'SERVER')),
      guild_id                  text CHECK (guild_id ~ '^[0-9]{1,20}$'),
      target_key                text NOT NULL,
      plan_type                 text NOT NULL CHECK (plan_type IN ('Monthly', 'Yearly')),
      duration_days             integer NOT NULL CHECK (duration_days > 0),
      amount_paise              integer NOT NULL CHECK (amount_paise >= 100),
      status                    text NOT NULL DEFAULT 'created' CHECK (status IN (
                                  'created', 'authenticated', 'active', 'pending', 'halted',
                                  'cancelled', 'completed', 'paused', 'expired')),
      cancel_at_cycle_end       boolean NOT NULL DEFAULT false,
      start_at                  timestamptz,
      current_start             timestamptz,
      current_end               timestamptz,
      charge_at                 timestamptz,
      paid_count                integer NOT NULL DEFAULT 0,
      short_url                 text,
      authorized_payment_id     text,
      created_at                timestamptz NOT NULL DEFAULT now(),
      updated_at                timestamptz NOT NULL DEFAULT now(),
      CHECK ((category = 'SERVER') = (guild_id IS NOT NULL))
    );
    CREATE UNIQUE INDEX subscriptions_one_live_per_target ON subscriptions (target_key)
      WHERE status IN ('created', 'authenticated', 'active', 'pending', 'halted', 'paused');
    CREATE INDEX subscriptions_buyer ON subscriptions (buyer_user_id, created_at DESC);

    CREATE TABLE subscription_charges (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      subscription_id bigint NOT NULL REFERENCES subscriptions (id),
      payment_id      text NOT NULL UNIQUE,
      invoice_id      text,
      amount_paise    integer NOT NULL,
      currency        text NOT NULL,
      cycle_start     timestamptz,
      cycle_end       timestamptz,
      grant_id        bigint REFERENCES premium_grants (id),
      status          text NOT NULL DEFAULT 'charged' CHECK (status IN ('charged', 'refunded')),
      source          text NOT NULL CHECK (source IN ('checkout', 'webhook', 'reconcile')),
      created_at      timestamptz NOT NULL DEFAULT now(),
      refunded_at     timestamptz
    );
    CREATE INDEX subscription_charges_subscription ON subscription_charges (subscription_id, created_at);

    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_check;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_check CHECK (source IN (
      'checkout', 'webhook', 'reconcile', 'manual', 'subscription', 'code', 'transfer'));
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TABLE subscription_charges, subscriptions;
    -- One statement, so a grant and the revoke pointing at it go together.
    DELETE FROM premium_grants WHERE source = 'subscription';
    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_check;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_check CHECK (source IN (
      'checkout', 'webhook', 'reconcile', 'manual'));
  `);
};

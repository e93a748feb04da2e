import type { Migration } from '../src/core/db/migrator';

/**
 * The whole schema of docs/design.md. Constraints carry the money rules: one row per provider account, per
 * processor order, per payment, per grant idempotency key, per webhook event and per outbox event.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE users (
      id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      provider_id        text NOT NULL UNIQUE CHECK (provider_id ~ '^[0-9]{1,20}$'),
      username           text NOT NULL,
      avatar             text,
      premium_expires_at timestamptz,
      last_login_at      timestamptz,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX users_username_lower ON users (lower(username) text_pattern_ops);

    CREATE TABLE user_guilds (
      user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      guild_id     text NOT NULL CHECK (guild_id ~ '^[0-9]{1,20}$'),
      name         text NOT NULL,
      icon         text,
      owner        boolean NOT NULL,
      permissions  text NOT NULL,
      refreshed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, guild_id)
    );
    CREATE INDEX user_guilds_guild_id ON user_guilds (guild_id);

    CREATE TABLE orders (
      id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      processor_order_id text NOT NULL UNIQUE,
      receipt            text NOT NULL UNIQUE,
      buyer_user_id      bigint NOT NULL REFERENCES users (id),
      category           text NOT NULL CHECK (category IN ('USER', 'SERVER')),
      guild_id           text CHECK (guild_id ~ '^[0-9]{1,20}$'),
      plan_type          text NOT NULL CHECK (plan_type IN ('Monthly', 'Yearly', 'Custom')),
      months             integer CHECK (months BETWEEN 1 AND 36),
      duration_days      integer NOT NULL CHECK (duration_days > 0),
      amount_paise       integer NOT NULL CHECK (amount_paise >= 100),
      currency           text NOT NULL DEFAULT 'INR',
      status             text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'paid', 'refunded')),
      payment_id         text UNIQUE,
      paid_at            timestamptz,
      refunded_at        timestamptz,
      created_at         timestamptz NOT NULL DEFAULT now(),
      updated_at         timestamptz NOT NULL DEFAULT now(),
      CHECK ((category = 'SERVER') = (guild_id IS NOT NULL)),
      CHECK ((status = 'created') = (payment_id IS NULL))
    );
    CREATE INDEX orders_buyer ON orders (buyer_user_id, created_at DESC);
    CREATE INDEX orders_created_pending ON orders (created_at) WHERE status = 'created';

    CREATE TABLE user_premiums (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id    bigint NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
      slots      integer NOT NULL DEFAULT 1 CHECK (slots >= 0),
      expires_at timestamptz NOT NULL,
      version    integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX user_premiums_expires_at ON user_premiums (expires_at);

    CREATE TABLE server_premiums (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      guild_id      text NOT NULL UNIQUE CHECK (guild_id ~ '^[0-9]{1,20}$'),
      buyer_user_id bigint NOT NULL REFERENCES users (id),
      slots         integer NOT NULL DEFAULT 1 CHECK (slots >= 0),
      expires_at    timestamptz NOT NULL,
      version       integer NOT NULL DEFAULT 1,
      created_at    timestamptz NOT NULL DEFAULT now(),
      updated_at    timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX server_premiums_expires_at ON server_premiums (expires_at);

    CREATE TABLE premium_grants (
      id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      idempotency_key  text NOT NULL UNIQUE,
      event_id         uuid NOT NULL UNIQUE,
      kind             text NOT NULL CHECK (kind IN ('grant', 'revoke')),
      category         text NOT NULL CHECK (category IN ('USER', 'SERVER')),
      user_id          bigint NOT NULL REFERENCES users (id),
      guild_id         text,
      plan_type        text,
      days             integer NOT NULL,
      expires_before   timestamptz,
      expires_after    timestamptz NOT NULL,
      source           text NOT NULL CHECK (source IN ('checkout', 'webhook', 'reconcile', 'manual')),
      actor            text NOT NULL,
      reason           text,
      order_id         bigint REFERENCES orders (id),
      revokes_grant_id bigint UNIQUE REFERENCES premium_grants (id),
      version          integer NOT NULL,
      created_at       timestamptz NOT NULL DEFAULT now(),
      CHECK ((category = 'SERVER') = (guild_id IS NOT NULL)),
      CHECK ((kind = 'grant') = (days > 0))
    );
    CREATE INDEX premium_grants_user ON premium_grants (user_id, created_at DESC);
    CREATE INDEX premium_grants_guild ON premium_grants (guild_id, created_at DESC) WHERE guild_id IS NOT NULL;
    CREATE UNIQUE INDEX premium_grants_one_per_order ON premium_grants (order_id) WHERE kind = 'grant';

    CREATE TABLE webhook_events (
      event_id    text PRIMARY KEY,
      event_type  text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_events_received_at ON webhook_events (received_at);

    CREATE TABLE outbox (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id      uuid NOT NULL UNIQUE,
      type          text NOT NULL,
      aggregate_key text NOT NULL,
      payload       jsonb NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now(),
      attempts      integer NOT NULL DEFAULT 0,
      available_at  timestamptz NOT NULL DEFAULT now(),
      last_error    text,
      dead_at       timestamptz
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE dead_at IS NULL;

    -- Wakes the relay (LISTEN premium_outbox) when the inserting transaction commits.
    CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('premium_outbox', '');
      RETURN NULL;
    END $$;
    CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TABLE outbox, webhook_events, premium_grants, server_premiums, user_premiums, orders, user_guilds, users;
    DROP FUNCTION outbox_notify();
  `);
};

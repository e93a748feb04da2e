import type { Migration } from '../src/core/db/migrator';

/**
 * Self-service and support (docs/design.md): transfers of a guild's premium, gift codes, and the failed code
 * attempts that limit guessing.
 *
 * The ledger's source check takes every source docs/events.md names, `subscription` included, so that this
 * migration and the subscriptions one agree whichever runs last.
 *
 * A transfer points at its two ledger rows; a later revoke of a grant bought for the old guild follows
 * the transfers whose REMOVE row came after the grant (ledger ids order changes to one record exactly,
 * since both were written under its row lock). Codes keep only their SHA-256; plan, expiry and reason
 * live on their batch.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_check;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_check CHECK (source IN
      ('checkout', 'webhook', 'reconcile', 'manual', 'subscription', 'code', 'transfer'));

    CREATE TABLE premium_transfers (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      from_guild_id   text NOT NULL CHECK (from_guild_id ~ '^[0-9]{1,20}$'),
      to_guild_id     text NOT NULL CHECK (to_guild_id ~ '^[0-9]{1,20}$'),
      user_id         bigint NOT NULL REFERENCES users (id),
      actor           text NOT NULL,
      reason          text NOT NULL,
      days            integer NOT NULL CHECK (days > 0),
      remove_grant_id bigint NOT NULL UNIQUE REFERENCES premium_grants (id),
      add_grant_id    bigint NOT NULL UNIQUE REFERENCES premium_grants (id),
      created_at      timestamptz NOT NULL DEFAULT now(),
      CHECK (from_guild_id <> to_guild_id)
    );
    CREATE INDEX premium_transfers_from ON premium_transfers (from_guild_id, remove_grant_id);

    CREATE TABLE premium_code_batches (
      id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      plan_type     text NOT NULL CHECK (plan_type IN ('Monthly', 'Yearly', 'Custom')),
      months        integer CHECK (months BETWEEN 1 AND 36),
      duration_days integer NOT NULL CHECK (duration_days > 0),
      expires_at    timestamptz,
      actor         text NOT NULL,
      reason        text NOT NULL,
      created_at    timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE premium_codes (
      id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      batch_id            bigint NOT NULL REFERENCES premium_code_batches (id),
      code_sha256         text NOT NULL UNIQUE CHECK (code_sha256 ~ '^[0-9a-f]{64}$'),
      redeemed_at         timestamptz,
      redeemed_by_user_id bigint REFERENCES users (id),
      grant_id            bigint UNIQUE REFERENCES premium_grants (id),
      revoked_at          timestamptz,
      revoked_by          text,
      revoke_reason       text,
      CHECK ((redeemed_at IS NULL) = (grant_id IS NULL)),
      CHECK ((revoked_at IS NULL) = (revoke_reason IS NULL))
    );
    CREATE INDEX premium_codes_batch ON premium_codes (batch_id, id);

    CREATE TABLE code_attempt_failures (
      id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      ip         text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX code_attempt_failures_user ON code_attempt_failures (user_id, created_at);
    CREATE INDEX code_attempt_failures_ip ON code_attempt_failures (ip, created_at);
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TABLE code_attempt_failures, premium_codes, premium_code_batches, premium_transfers;
    ALTER TABLE premium_grants DROP CONSTRAINT premium_grants_source_check;
    ALTER TABLE premium_grants ADD CONSTRAINT premium_grants_source_check CHECK (source IN
      ('checkout', 'webhook', 'reconcile', 'manual', 'subscription'));
  `);
};

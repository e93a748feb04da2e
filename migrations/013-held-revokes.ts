import type { Migration } from '../src/core/db/migrator';

/**
 * The revocation guard (src/core/revocation-guard): automatic revokes held past MAX_REVOKES_PER_HOUR,
 * kept until an operator releases them (`premium revokes release`). `request` is the revoke as it was
 * asked for, applied as it is on release. And an index for counting the last hour's automatic revokes.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE held_revokes (
      id              bigserial PRIMARY KEY,
      idempotency_key text NOT NULL UNIQUE,
      request         jsonb NOT NULL,
      held_at         timestamptz NOT NULL DEFAULT now(),
      released_at     timestamptz,
      released_by     text,
      -- What the release did: the revoke's ledger row, or why nothing was taken.
      outcome         text
    );
    CREATE INDEX held_revokes_pending ON held_revokes (id) WHERE released_at IS NULL;
    CREATE INDEX premium_grants_automatic_revokes ON premium_grants (created_at)
      WHERE kind = 'revoke' AND source IN ('webhook', 'reconcile', 'subscription');
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP INDEX premium_grants_automatic_revokes;
    DROP TABLE held_revokes;
  `);
};

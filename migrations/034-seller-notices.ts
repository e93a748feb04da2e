import type { Migration } from '../src/core/db/migrator';

/**
 * The seller's notices (docs/seller-notices.md): one row per message to SELLER_DISCORD_WEBHOOK_URL,
 * written in the transaction of the sale, failed renewal, dispute or held revoke it tells of, and sent by
 * the worker. `payload` holds the message's facts (never a buyer's token, email or payment instrument).
 * A row is due at `due_at`; `attempted_at` is its last claim, which paces the sends; `sent_at` is set
 * after Discord's 2xx, `dead_at` once the worker gives up. A new table, referenced by none: creating it
 * locks nothing a live service uses.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE seller_notices (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind         text NOT NULL CHECK (kind IN ('sale', 'renewal', 'renewal_failed', 'dispute', 'held_revoke')),
      payload      jsonb NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      due_at       timestamptz NOT NULL DEFAULT now(),
      attempts     integer NOT NULL DEFAULT 0,
      attempted_at timestamptz,
      last_error   text,
      sent_at      timestamptz,
      dead_at      timestamptz
    );
    CREATE INDEX seller_notices_due ON seller_notices (due_at, id) WHERE sent_at IS NULL AND dead_at IS NULL;
    CREATE INDEX seller_notices_attempted ON seller_notices (attempted_at) WHERE attempted_at IS NOT NULL;
    CREATE INDEX seller_notices_created ON seller_notices (created_at);
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE seller_notices');
};

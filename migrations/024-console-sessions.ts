import type { Migration } from '../src/core/db/migrator';

/**
 * The seller's console's live sessions, one row per sign-in, named by the `jti` of its cookie. Every
 * console request looks its row up and sign-out deletes it, so a signed-out cookie stops working at
 * once instead of at its 8-hour expiry. Each sign-in deletes the rows past `expires_at`.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE console_sessions (
      id           uuid PRIMARY KEY,
      operator_id  text NOT NULL,
      created_at   timestamptz NOT NULL DEFAULT now(),
      expires_at   timestamptz NOT NULL
    );
    CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE console_sessions');
};

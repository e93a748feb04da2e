import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline } from '../src/core/db/online-migration';

/**
 * The buyer's choices of messages (docs/buyer-messages.md): a row per user and kind they turned off in
 * the store. A new table; its foreign key to `users` is added NOT VALID then validated, so that `users`
 * is locked only for a moment.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS message_opt_outs (
      user_id    bigint NOT NULL,
      kind       text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, kind)
    )`);
  await addConstraintOnline(
    sequelize,
    'message_opt_outs',
    'message_opt_outs_user_id_fkey',
    'FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE IF EXISTS message_opt_outs');
};

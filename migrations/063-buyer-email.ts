import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The address a buyer gave in the store for the messages by email (docs/buyer-messages.md; PUT
 * /api/me/messages `{email}`). A nullable column: no rewrite of `users`, no stop to writes.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE users ADD COLUMN IF NOT EXISTS message_email text');
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE users DROP COLUMN IF EXISTS message_email');
};

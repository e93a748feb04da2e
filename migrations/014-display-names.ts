import type { Migration } from '../src/core/db/migrator';

/**
 * Discord's display name (`global_name`), shown on the dashboard beside the handle. Null until the
 * user's next sign-in, and for accounts that have none: the dashboard then shows the handle.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE users ADD COLUMN global_name text');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE users DROP COLUMN global_name');
};

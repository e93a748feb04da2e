import type { Migration } from '../src/core/db/migrator';

/**
 * The grant a won dispute gave back, kept on the order or charge it belongs to: a later refund or dispute
 * takes that one back, whichever dispute the row names by then (a second dispute's id replaces the
 * first's). Filled for disputes won before this column existed from the grant's idempotency key.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders ADD COLUMN given_back_grant_id bigint UNIQUE REFERENCES premium_grants (id);
    ALTER TABLE subscription_charges ADD COLUMN given_back_grant_id bigint UNIQUE REFERENCES premium_grants (id);
    UPDATE orders o SET given_back_grant_id = g.id
    FROM premium_grants g WHERE g.idempotency_key = 'dispute:' || o.dispute_id || ':won';
    UPDATE subscription_charges c SET given_back_grant_id = g.id
    FROM premium_grants g WHERE g.idempotency_key = 'dispute:' || c.dispute_id || ':won';
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders DROP COLUMN given_back_grant_id;
    ALTER TABLE subscription_charges DROP COLUMN given_back_grant_id;
  `);
};

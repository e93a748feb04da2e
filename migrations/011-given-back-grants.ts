import type { Migration } from '../src/core/db/migrator';

/**
 * The grant a won dispute gave back, kept on the order or charge it belongs to: a later refund or dispute
 * takes that one back, whichever dispute the row names by then (a second dispute's id replaces the
 * first's). Filled for disputes won before this column existed: the newest given-back grant whose reason
 * names the row (`dispute <id> won (order <id>)`, `… (subscription <id> payment <id>)`).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders ADD COLUMN given_back_grant_id bigint UNIQUE REFERENCES premium_grants (id);
    ALTER TABLE subscription_charges ADD COLUMN given_back_grant_id bigint UNIQUE REFERENCES premium_grants (id);

    CREATE TEMPORARY TABLE given_back ON COMMIT DROP AS
      SELECT id, substring(reason FROM ' won \\((.*)\\)$') AS payment_name FROM premium_grants
      WHERE kind = 'grant' AND idempotency_key LIKE 'dispute:%:won';
    UPDATE orders o SET given_back_grant_id = newest.id
    FROM (SELECT payment_name, max(id) AS id FROM given_back GROUP BY payment_name) newest
    WHERE newest.payment_name = 'order ' || o.processor_order_id;
    UPDATE subscription_charges c SET given_back_grant_id = newest.id
    FROM (SELECT payment_name, max(id) AS id FROM given_back GROUP BY payment_name) newest,
         subscriptions s
    WHERE s.id = c.subscription_id
      AND newest.payment_name = 'subscription ' || s.processor_subscription_id || ' payment ' || c.payment_id;
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE orders DROP COLUMN given_back_grant_id;
    ALTER TABLE subscription_charges DROP COLUMN given_back_grant_id;
  `);
};

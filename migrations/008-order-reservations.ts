import type { Migration } from '../src/core/db/migrator';

/**
 * `order_reservations`: one row per create-order waiting on Razorpay's orders.create, inserted and
 * removed by short transactions on either side of the call, so that no transaction stays open while
 * Razorpay answers. A live row (its lease not run out) counts towards the buyer's open orders and makes
 * an identical request wait for the order it will bring; a crashed server's row simply runs out.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE order_reservations (
      receipt       text PRIMARY KEY,
      buyer_user_id bigint NOT NULL REFERENCES users (id),
      target        text NOT NULL,
      lease_until   timestamptz NOT NULL
    );
    CREATE INDEX order_reservations_buyer ON order_reservations (buyer_user_id, lease_until);
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE order_reservations;');
};

import type { Migration } from '../src/core/db/migrator';

/**
 * A chargeback of a subscription's charge, kept on the charge as on an order (003-hardening):
 * `dispute_id` / `dispute_status` (open, won, lost, closed), and status `disputed` while an open
 * dispute holds the cycle's premium taken back.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    ALTER TABLE subscription_charges
      ADD COLUMN dispute_id text,
      ADD COLUMN dispute_status text CHECK (dispute_status IN ('open', 'won', 'lost', 'closed')),
      ADD CHECK ((dispute_id IS NULL) = (dispute_status IS NULL)),
      DROP CONSTRAINT subscription_charges_status_check,
      ADD CONSTRAINT subscription_charges_status_check CHECK (status IN ('charged', 'disputed', 'refunded'));
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    UPDATE subscription_charges SET status = 'refunded', refunded_at = now() WHERE status = 'disputed';
    ALTER TABLE subscription_charges
      DROP COLUMN dispute_status,
      DROP COLUMN dispute_id,
      DROP CONSTRAINT subscription_charges_status_check,
      ADD CONSTRAINT subscription_charges_status_check CHECK (status IN ('charged', 'refunded'));
  `);
};

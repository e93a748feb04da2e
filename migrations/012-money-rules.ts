import type { Migration } from '../src/core/db/migrator';

/**
 * Money rules among co-owners, renewals and late deliveries. Adds only; rewrites no existing row.
 * - `premium_transfer_moves`: which purchase's days each transfer moved and the grant that now carries
 *   them on the new guild, so a refund or dispute of that purchase follows its own days. Transfers made
 *   before moved whole guilds; they keep being followed as before (days-trail.ts).
 * - `subscriptions.state_event_at`: the `created_at` of the webhook event (or the time of the fetch) that
 *   set the stored state, so an older event no longer rolls it back. NULL until the next event.
 * - Disputes as Razorpay sends them: the disputed `amount` (a share of the payment), `amount_deducted`,
 *   `reason_code`, `phase`, `respond_by`, and the status `under_review`. Existing disputes keep NULLs
 *   (they were taken whole).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE premium_transfer_moves (
      transfer_id   bigint NOT NULL REFERENCES premium_transfers (id),
      from_grant_id bigint NOT NULL UNIQUE REFERENCES premium_grants (id),
      to_grant_id   bigint NOT NULL UNIQUE REFERENCES premium_grants (id),
      PRIMARY KEY (transfer_id, from_grant_id)
    );

    ALTER TABLE subscriptions ADD COLUMN state_event_at timestamptz;

    ALTER TABLE payment_disputes
      ADD COLUMN amount_paise integer CHECK (amount_paise > 0),
      ADD COLUMN amount_deducted_paise integer CHECK (amount_deducted_paise >= 0),
      ADD COLUMN reason_code text,
      ADD COLUMN phase text,
      ADD COLUMN respond_by timestamptz,
      DROP CONSTRAINT payment_disputes_status_check,
      ADD CONSTRAINT payment_disputes_status_check
        CHECK (status IN ('open', 'under_review', 'won', 'lost', 'closed'));
    CREATE INDEX payment_disputes_respond_by ON payment_disputes (respond_by)
      WHERE status IN ('open', 'under_review');

    ALTER TABLE orders
      DROP CONSTRAINT orders_dispute_status_check,
      ADD CONSTRAINT orders_dispute_status_check
        CHECK (dispute_status IN ('open', 'under_review', 'won', 'lost', 'closed'));
    ALTER TABLE subscription_charges
      DROP CONSTRAINT subscription_charges_dispute_status_check,
      ADD CONSTRAINT subscription_charges_dispute_status_check
        CHECK (dispute_status IN ('open', 'under_review', 'won', 'lost', 'closed'));
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    UPDATE payment_disputes SET status = 'open' WHERE status = 'under_review';
    UPDATE orders SET dispute_status = 'open' WHERE dispute_status = 'under_review';
    UPDATE subscription_charges SET dispute_status = 'open' WHERE dispute_status = 'under_review';
    ALTER TABLE subscription_charges
      DROP CONSTRAINT subscription_charges_dispute_status_check,
      ADD CONSTRAINT subscription_charges_dispute_status_check
        CHECK (dispute_status IN ('open', 'won', 'lost', 'closed'));
    ALTER TABLE orders
      DROP CONSTRAINT orders_dispute_status_check,
      ADD CONSTRAINT orders_dispute_status_check CHECK (dispute_status IN ('open', 'won', 'lost', 'closed'));
    DROP INDEX payment_disputes_respond_by;
    ALTER TABLE payment_disputes
      DROP COLUMN amount_paise, DROP COLUMN amount_deducted_paise, DROP COLUMN reason_code, DROP COLUMN phase,
      DROP COLUMN respond_by,
      DROP CONSTRAINT payment_disputes_status_check,
      ADD CONSTRAINT payment_disputes_status_check CHECK (status IN ('open', 'won', 'lost', 'closed'));
    ALTER TABLE subscriptions DROP COLUMN state_event_at;
    DROP TABLE premium_transfer_moves;
  `);
};

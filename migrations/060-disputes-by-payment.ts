import { QueryTypes } from 'sequelize';
import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, createIndexConcurrently } from '../src/core/db/online-migration';

/**
 * A dispute names its payment (`payment_disputes.payment_id`, docs/payments.md), as a refund does: the
 * dispute rules find a payment's disputes by it, not by an order-or-charge pair. Online: the column is
 * added without a default; a trigger fills it on the inserts of a version still running beside this one
 * (which names only the order or charge); the rows already there are filled in batches; the index is
 * built concurrently. The `order_id` / `charge_id` pair stays for the reports until they read
 * `payments` (docs/payments.md).
 */
const PAYMENT_OF_OWNER = `COALESCE(
  (SELECT o.payment_id FROM orders o WHERE o.id = d.order_id),
  (SELECT c.payment_id FROM subscription_charges c WHERE c.id = d.charge_id))`;
const BATCH = 5_000;

export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE payment_disputes ADD COLUMN IF NOT EXISTS payment_id text;
     CREATE OR REPLACE FUNCTION dispute_payment() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.payment_id IS NULL THEN
         NEW.payment_id := (SELECT ${PAYMENT_OF_OWNER} FROM (SELECT NEW.order_id, NEW.charge_id) d);
       END IF;
       RETURN NEW;
     END $$;
     DROP TRIGGER IF EXISTS payment_disputes_payment ON payment_disputes;
     CREATE TRIGGER payment_disputes_payment BEFORE INSERT ON payment_disputes
       FOR EACH ROW EXECUTE FUNCTION dispute_payment()`,
  );
  // Keyed by dispute id, not a number: a batch is the next rows without a payment, until none is left
  // (a dispute whose order never learned its payment stays without one, and is skipped).
  for (let after = ''; ;) {
    const [batch] = await sequelize.query<{ last: string | null }>(
      `WITH next AS (
         SELECT dispute_id FROM payment_disputes WHERE payment_id IS NULL AND dispute_id > $1
         ORDER BY dispute_id LIMIT ${BATCH}),
       filled AS (
         UPDATE payment_disputes d SET payment_id = ${PAYMENT_OF_OWNER}
         FROM next WHERE d.dispute_id = next.dispute_id RETURNING d.dispute_id)
       SELECT max(dispute_id) AS last FROM filled`,
      { bind: [after], type: QueryTypes.SELECT },
    );
    if (!batch?.last) break;
    after = batch.last;
  }
  await createIndexConcurrently(sequelize, 'payment_disputes_by_payment', 'ON payment_disputes (payment_id)');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TRIGGER IF EXISTS payment_disputes_payment ON payment_disputes;
    DROP FUNCTION IF EXISTS dispute_payment();
    DROP INDEX IF EXISTS payment_disputes_by_payment;
    ALTER TABLE payment_disputes DROP COLUMN IF EXISTS payment_id`);
};

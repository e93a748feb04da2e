import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

/**
 * From this release, refunds and disputes are written naming their payment alone (`payment_id`,
 * docs/payments.md), and every reader finds their order or charge through `payments`. A version still
 * running beside this one during a deploy reads the `order_id` / `charge_id` pair, so the pair is kept
 * filled: on insert from the payment's row of `payments`; and, for a refund or dispute that came before its
 * payment was recorded (an order applied later, or learning its payment in the same transaction), by the
 * insert of that payment's row. The pair's CHECK "exactly one" becomes "at most one", since such a row has
 * neither until then. The pair, these triggers and this CHECK go in a later release (docs/migrations.md).
 */
const TABLES = ['payment_refunds', 'payment_disputes'] as const;

const ownerOnInsert = (table: string) => `
  DROP TRIGGER IF EXISTS ${table}_owner ON ${table};
  CREATE TRIGGER ${table}_owner BEFORE INSERT ON ${table}
    FOR EACH ROW WHEN (NEW.order_id IS NULL AND NEW.charge_id IS NULL AND NEW.payment_id IS NOT NULL)
    EXECUTE FUNCTION payment_owner_on_insert()`;

const fillOwnerOf = (table: string) => `
  UPDATE ${table} SET order_id = NEW.order_id, charge_id = NEW.charge_id
  WHERE payment_id = NEW.payment_id AND order_id IS NULL AND charge_id IS NULL;`;

export const up: Migration = async ({ context: sequelize }) => {
  for (const table of TABLES) {
    await addConstraintOnline(
      sequelize,
      table,
      `${table}_one_owner`,
      'CHECK (order_id IS NULL OR charge_id IS NULL)',
    );
    await alterBriefly(sequelize, `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_check`);
  }
  await alterBriefly(
    sequelize,
    `CREATE OR REPLACE FUNCTION payment_owner_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       SELECT p.order_id, p.charge_id INTO NEW.order_id, NEW.charge_id FROM payments p
       WHERE p.payment_id = NEW.payment_id;
       RETURN NEW;
     END $$;
     ${TABLES.map(ownerOnInsert).join(';')};
     CREATE OR REPLACE FUNCTION payment_owner_to_rows() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       ${TABLES.map(fillOwnerOf).join('')}
       RETURN NULL;
     END $$;
     DROP TRIGGER IF EXISTS payments_owner_to_rows ON payments;
     CREATE TRIGGER payments_owner_to_rows AFTER INSERT ON payments
       FOR EACH ROW EXECUTE FUNCTION payment_owner_to_rows()`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DROP TRIGGER IF EXISTS payments_owner_to_rows ON payments;
    DROP FUNCTION IF EXISTS payment_owner_to_rows();
    ${TABLES.map((table) => `DROP TRIGGER IF EXISTS ${table}_owner ON ${table};`).join('')}
    DROP FUNCTION IF EXISTS payment_owner_on_insert();
    ${TABLES.map(
      (table) => `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${table}_one_owner,
        ADD CONSTRAINT ${table}_check CHECK ((order_id IS NULL) <> (charge_id IS NULL)) NOT VALID;`,
    ).join('')}`);
};

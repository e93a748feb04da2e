import type { Migration } from '../src/core/db/migrator';
import { alterBriefly, createIndexConcurrently } from '../src/core/db/online-migration';

/**
 * Tax invoices and credit notes (docs/invoices.md). The buyer's billing (GST state code, GSTIN, name) on
 * orders and subscriptions, nullable: an order without one is billed to the seller's state. One invoice
 * per captured payment (an order's or a subscription charge's), one credit note per refund, each numbered
 * from a locked row of `document_series` per (kind, financial year): a number is taken in the transaction
 * that issues its document, so a rollback gives it back and no number is skipped or taken twice (a
 * database sequence would skip the numbers of rolled-back transactions). Documents are frozen once issued:
 * a trigger refuses any UPDATE of them. Nothing is backfilled: payments applied before this migration have
 * no invoice.
 */
export const up: Migration = async ({ context: sequelize }) => {
  for (const table of ['orders', 'subscriptions']) {
    await alterBriefly(
      sequelize,
      `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS billing_state_code text,
         ADD COLUMN IF NOT EXISTS billing_gstin text, ADD COLUMN IF NOT EXISTS billing_name text`,
    );
  }
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS document_series (
       kind            text NOT NULL CHECK (kind IN ('invoice', 'receipt', 'credit_note')),
       financial_year  text NOT NULL CHECK (financial_year ~ '^[0-9]{4}$'),
       last_serial     integer NOT NULL CHECK (last_serial BETWEEN 1 AND 999999),
       PRIMARY KEY (kind, financial_year)
     )`,
  );
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS invoices (
       id                 bigserial PRIMARY KEY,
       kind               text NOT NULL CHECK (kind IN ('invoice', 'receipt')),
       number             text NOT NULL UNIQUE CHECK (length(number) <= 16),
       financial_year     text NOT NULL,
       serial             integer NOT NULL,
       issued_at          timestamptz NOT NULL,
       payment_id         text NOT NULL UNIQUE,
       order_id           bigint REFERENCES orders (id),
       subscription_id    bigint REFERENCES subscriptions (id),
       user_id            bigint NOT NULL REFERENCES users (id),
       description        text NOT NULL,
       seller_gstin       text,
       seller_name        text,
       seller_address     text,
       seller_state_code  text,
       buyer_name         text NOT NULL,
       buyer_gstin        text,
       buyer_state_code   text,
       place_of_supply    text,
       sac                text,
       rate_percent       numeric(5, 2) NOT NULL,
       taxable_paise      integer NOT NULL CHECK (taxable_paise >= 0),
       cgst_paise         integer NOT NULL CHECK (cgst_paise >= 0),
       sgst_paise         integer NOT NULL CHECK (sgst_paise >= 0),
       igst_paise         integer NOT NULL CHECK (igst_paise >= 0),
       total_paise        integer NOT NULL CHECK (total_paise > 0),
       currency           text NOT NULL,
       UNIQUE (kind, financial_year, serial),
       CHECK (taxable_paise + cgst_paise + sgst_paise + igst_paise = total_paise),
       CHECK ((order_id IS NULL) <> (subscription_id IS NULL)),
       CHECK (kind = 'invoice' OR (cgst_paise = 0 AND sgst_paise = 0 AND igst_paise = 0))
     )`,
  );
  await alterBriefly(
    sequelize,
    `CREATE TABLE IF NOT EXISTS credit_notes (
       id              bigserial PRIMARY KEY,
       number          text NOT NULL UNIQUE CHECK (length(number) <= 16),
       financial_year  text NOT NULL,
       serial          integer NOT NULL,
       issued_at       timestamptz NOT NULL,
       invoice_id      bigint NOT NULL REFERENCES invoices (id),
       refund_id       text UNIQUE,
       taxable_paise   integer NOT NULL CHECK (taxable_paise >= 0),
       cgst_paise      integer NOT NULL CHECK (cgst_paise >= 0),
       sgst_paise      integer NOT NULL CHECK (sgst_paise >= 0),
       igst_paise      integer NOT NULL CHECK (igst_paise >= 0),
       total_paise     integer NOT NULL CHECK (total_paise > 0),
       UNIQUE (financial_year, serial),
       CHECK (taxable_paise + cgst_paise + sgst_paise + igst_paise = total_paise)
     )`,
  );
  await sequelize.query(`
    CREATE OR REPLACE FUNCTION refuse_tax_document_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% % is issued: a tax document is never changed (a credit note corrects it)',
        TG_TABLE_NAME, OLD.number;
    END $$`);
  for (const table of ['invoices', 'credit_notes']) {
    await alterBriefly(
      sequelize,
      `CREATE OR REPLACE TRIGGER ${table}_frozen BEFORE UPDATE ON ${table}
         FOR EACH ROW EXECUTE FUNCTION refuse_tax_document_change()`,
    );
  }
  await createIndexConcurrently(sequelize, 'invoices_issued', 'ON invoices (issued_at)');
  await createIndexConcurrently(sequelize, 'invoices_of_user', 'ON invoices (user_id, issued_at)');
  await createIndexConcurrently(sequelize, 'invoices_of_order', 'ON invoices (order_id)');
  await createIndexConcurrently(sequelize, 'invoices_of_subscription', 'ON invoices (subscription_id)');
  await createIndexConcurrently(sequelize, 'credit_notes_of_invoice', 'ON credit_notes (invoice_id)');
  await createIndexConcurrently(sequelize, 'credit_notes_issued', 'ON credit_notes (issued_at)');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE credit_notes, invoices, document_series');
  await sequelize.query('DROP FUNCTION refuse_tax_document_change()');
  for (const table of ['orders', 'subscriptions']) {
    await sequelize.query(
      `ALTER TABLE ${table} DROP COLUMN billing_state_code, DROP COLUMN billing_gstin, DROP COLUMN billing_name`,
    );
  }
};

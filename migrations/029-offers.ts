import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * Offers (docs/offers.md): codes a buyer types at checkout for a percentage or an amount off. A
 * redemption row is written, under the offer's lock, by the request that creates the order, keyed by the
 * order's receipt (the order row exists only once Razorpay answered). It counts against the offer's caps
 * while its order is unpaid and young, and for good once the order is paid; an order left unpaid gives it
 * back by ageing, so no job has to release it. Orders record their list price and discount.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE offers (
      id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      code                 text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{4,32}$'),
      percent_off          integer CHECK (percent_off BETWEEN 1 AND 100),
      amount_off_paise     integer CHECK (amount_off_paise >= 100),
      plan_codes           text[],
      starts_at            timestamptz,
      ends_at              timestamptz,
      max_redemptions      integer CHECK (max_redemptions >= 1),
      first_purchase_only  boolean NOT NULL DEFAULT false,
      status               text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
      actor                text NOT NULL,
      created_at           timestamptz NOT NULL DEFAULT now(),
      updated_at           timestamptz NOT NULL DEFAULT now(),
      CHECK ((percent_off IS NULL) <> (amount_off_paise IS NULL)),
      CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at)
    );
    CREATE TABLE offer_redemptions (
      id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      offer_id          bigint NOT NULL REFERENCES offers (id),
      buyer_user_id     bigint NOT NULL REFERENCES users (id),
      receipt           text NOT NULL UNIQUE,
      list_price_paise  integer NOT NULL,
      discount_paise    integer NOT NULL,
      created_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX offer_redemptions_by_offer ON offer_redemptions (offer_id, created_at);
    CREATE INDEX offer_redemptions_by_buyer ON offer_redemptions (buyer_user_id, offer_id);
  `);
  await alterBriefly(
    sequelize,
    `ALTER TABLE orders ADD COLUMN IF NOT EXISTS list_price_paise integer,
       ADD COLUMN IF NOT EXISTS discount_paise integer NOT NULL DEFAULT 0,
       ADD COLUMN IF NOT EXISTS offer_id bigint`,
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`ALTER TABLE orders DROP COLUMN list_price_paise, DROP COLUMN discount_paise,
    DROP COLUMN offer_id; DROP TABLE offer_redemptions; DROP TABLE offers`);
};

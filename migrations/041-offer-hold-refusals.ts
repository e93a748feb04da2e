import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

const KINDS = `'sale', 'renewal', 'renewal_failed', 'dispute', 'held_revoke'`;

/**
 * Offer holds (docs/offers.md, "How the caps hold"): a payment that arrives for an order whose offer
 * hold lapsed, when granting it would pass the offer's cap, once-per-buyer or first-purchase rule, is
 * refused and refunded in full. `orders.refused_code` keeps why (`OFFER_HOLD_EXPIRED`) on such an order:
 * it is paid and never granted, then refunded. The seller hears of it as a notice of kind
 * `offer_refund`. A nullable column, and a check replaced online.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE orders ADD COLUMN IF NOT EXISTS refused_code text');
  await addConstraintOnline(
    sequelize,
    'seller_notices',
    'seller_notices_kind_with_offer_refund',
    `CHECK (kind IN (${KINDS}, 'offer_refund'))`,
  );
  await alterBriefly(
    sequelize,
    'ALTER TABLE seller_notices DROP CONSTRAINT IF EXISTS seller_notices_kind_check',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DELETE FROM seller_notices WHERE kind = 'offer_refund';
    ALTER TABLE seller_notices ADD CONSTRAINT seller_notices_kind_check CHECK (kind IN (${KINDS}));
    ALTER TABLE seller_notices DROP CONSTRAINT seller_notices_kind_with_offer_refund;
    ALTER TABLE orders DROP COLUMN refused_code;
  `);
};

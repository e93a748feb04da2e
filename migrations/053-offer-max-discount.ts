import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

/**
 * A percent offer's cap on its discount, "20% off, up to ₹100" (docs/offers.md): `max_discount_paise`,
 * null for no cap, positive, and only on a percent offer. A nullable column, and its check added online.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE offers ADD COLUMN IF NOT EXISTS max_discount_paise integer');
  await addConstraintOnline(
    sequelize,
    'offers',
    'offers_max_discount_of_percent',
    'CHECK (max_discount_paise IS NULL OR (max_discount_paise > 0 AND percent_off IS NOT NULL))',
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE offers DROP COLUMN max_discount_paise');
};

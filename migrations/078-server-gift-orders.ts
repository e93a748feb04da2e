import type { Migration } from '../src/core/db/migrator';
import { addConstraintOnline, alterBriefly } from '../src/core/db/online-migration';

const OLD_CHECK = `CHECK ((category = 'SERVER') = (guild_id IS NOT NULL) OR (category = 'SERVER' AND slots > 1))`;

/**
 * A gift of a SERVER plan (docs/codes.md) is a SERVER order that names no guild: the code's redeemer picks
 * one. `orders_guild_check` (030) refused it, so such a gift's create-order failed with 500 once Razorpay
 * had made its order. The looser check is added online before the old one goes, so orders are checked by
 * one of them throughout.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await addConstraintOnline(
    sequelize,
    'orders',
    'orders_guild_or_unbound',
    `CHECK ((category = 'SERVER') = (guild_id IS NOT NULL) OR (category = 'SERVER' AND (slots > 1 OR gift)))`,
  );
  await alterBriefly(sequelize, 'ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_guild_check');
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    `ALTER TABLE orders DROP CONSTRAINT orders_guild_or_unbound, ADD CONSTRAINT orders_guild_check ${OLD_CHECK} NOT VALID`,
  );
};

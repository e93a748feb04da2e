import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The trigger of 059 writes a gift order's payment as kind `gift` (docs/payments.md): 069's function,
 * replaced in place with one more case, so the trigger that calls it stays. No gift was paid before 075,
 * so no row needs correcting. `down` puts 069's function back.
 */
const orderIntoPayments = (kind: string) => `
  CREATE OR REPLACE FUNCTION order_into_payments() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO payments (payment_id, source, order_id, charge_id, buyer_user_id, kind,
      amount_paise, currency, category, guild_id, plan_type, months, days, tier, slots, offer_id,
      billing_state_code, billing_gstin, billing_country, paid_at)
    SELECT o.payment_id, 'order', o.id, NULL::bigint, o.buyer_user_id, ${kind},
           o.amount_paise, o.currency, o.category, o.guild_id, o.plan_type, o.months, o.duration_days,
           o.tier, o.slots, o.offer_id, o.billing_state_code, o.billing_gstin, o.billing_country,
           COALESCE(o.paid_at, o.updated_at)
    FROM orders o WHERE o.id = NEW.id ON CONFLICT DO NOTHING;
    RETURN NULL;
  END $$`;

const KINDS_BEFORE =
  "WHEN o.upgrade_from_tier IS NOT NULL THEN 'upgrade' WHEN o.slots > 1 THEN 'bundle' ELSE 'single'";

export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, orderIntoPayments(`CASE WHEN o.gift THEN 'gift' ${KINDS_BEFORE} END`));
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, orderIntoPayments(`CASE ${KINDS_BEFORE} END`));
};

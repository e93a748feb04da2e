import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { NO_BILLING, type Billing } from './billing';

/**
 * Each buyer's last billing (the store fills its form with it next time), kept in `billing_details`:
 * written by create-order and create-subscription when they are given one, read by GET /api/me/billing.
 */

const SAVE_BILLING = `
  INSERT INTO billing_details AS b (user_id, state_code, gstin, name, address, pincode, country, updated_at)
  VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, now())
  ON CONFLICT (user_id) DO UPDATE SET state_code = $2::text, gstin = $3::text, name = $4::text,
    address = $5::text, pincode = $6::text, country = $7::text, updated_at = now()`;

const SAVED_BILLING = `
  SELECT b.state_code AS "stateCode", b.gstin, b.name, b.address, b.pincode, b.country
  FROM billing_details b WHERE b.user_id = $1::bigint`;

const isEmpty = (billing: Billing) => Object.values(billing).every((value) => value === null);

/** Keeps `billing` as the buyer's for next time; an empty one keeps what was saved. */
export async function saveBilling(
  runner: Sequelize | Transaction,
  userId: number,
  billing: Billing,
): Promise<void> {
  if (isEmpty(billing)) return;
  await execute(runner, SAVE_BILLING, [
    userId,
    billing.stateCode,
    billing.gstin,
    billing.name,
    billing.address,
    billing.pincode,
    billing.country,
  ]);
}

/** The buyer's last billing, all null when they never gave one. */
export async function savedBilling(sequelize: Sequelize, userId: number): Promise<Billing> {
  const [saved] = await selectRows<Billing>(sequelize, SAVED_BILLING, [userId]);
  return saved ?? NO_BILLING;
}

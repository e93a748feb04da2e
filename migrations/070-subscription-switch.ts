import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The subscription switch (docs/subscriptions.md, "Changing plan"). A card subscription switched to
 * another plan keeps that plan as pending until its next charge, which grants it (`pending_*`); a UPI
 * one is cancelled at its cycle's end and names the new mandate that replaces it (`replaced_by`); an
 * upgrade order of the rest of a cycle names the subscription whose days it converts
 * (`orders.upgrade_subscription_id`). All NULL by default: no rewrite, and a running version that
 * does not know them writes rows as before.
 */
const COLUMNS: [table: string, column: string, type: string][] = [
  ['subscriptions', 'pending_plan_type', 'text'],
  ['subscriptions', 'pending_tier', 'text'],
  ['subscriptions', 'pending_duration_days', 'integer'],
  ['subscriptions', 'pending_amount_paise', 'integer'],
  ['subscriptions', 'pending_processor_plan_id', 'text'],
  ['subscriptions', 'replaced_by', 'text'],
  ['orders', 'upgrade_subscription_id', 'text'],
];

export const up: Migration = async ({ context: sequelize }) => {
  for (const [table, column, type] of COLUMNS) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
  }
};

export const down: Migration = async ({ context: sequelize }) => {
  for (const [table, column] of COLUMNS) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} DROP COLUMN IF EXISTS ${column}`);
  }
};

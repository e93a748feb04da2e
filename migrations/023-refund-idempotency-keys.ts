import type { Migration } from '../src/core/db/migrator';
import {
  alterBriefly,
  createIndexConcurrently,
  dropIndexConcurrently,
} from '../src/core/db/online-migration';

/**
 * `payment_refunds.idempotency_key`: the key an operator's refund was asked under (the console makes one
 * per dialog, the CLI takes `--idempotency-key`), so the same request sent twice refunds once and the
 * second caller is answered with the first one's refund. Unique where set, built CONCURRENTLY.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE payment_refunds ADD COLUMN IF NOT EXISTS idempotency_key text');
  await createIndexConcurrently(
    sequelize,
    'payment_refunds_idempotency_key',
    'ON payment_refunds (idempotency_key) WHERE idempotency_key IS NOT NULL',
    { unique: true },
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await dropIndexConcurrently(sequelize, 'payment_refunds_idempotency_key');
  await alterBriefly(sequelize, 'ALTER TABLE payment_refunds DROP COLUMN IF EXISTS idempotency_key');
};

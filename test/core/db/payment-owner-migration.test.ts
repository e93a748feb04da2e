import { QueryTypes, type Transaction } from 'sequelize';
import { createMigrator } from '../../../src/core/db/migrator';
import { useEmptyDatabase } from '../../support/empty-database';

jest.setTimeout(30_000);

describe('migration 072: refunds and disputes written by their payment alone', () => {
  const database = useEmptyDatabase('payment_owner_migration');

  const owners = (table: 'payment_refunds' | 'payment_disputes', key: string, transaction?: Transaction) =>
    database().query<{ key: string; payment_id: string | null; order: string | null; charge: string | null }>(
      `SELECT t.${key} AS key, t.payment_id, o.processor_order_id AS order, c.payment_id AS charge
       FROM ${table} t LEFT JOIN orders o ON o.id = t.order_id LEFT JOIN subscription_charges c ON c.id = t.charge_id
       ORDER BY 1`,
      { type: QueryTypes.SELECT, transaction },
    );

  it('keeps the order-or-charge pair filled for an older version, also when the payment comes later', async () => {
    const migrator = createMigrator(database());
    await migrator.up();
    await database().query(`
      INSERT INTO users (provider_id, username) VALUES ('9001', 'buyer');
      INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days,
                          amount_paise, status, payment_id, paid_at)
      SELECT 'order_Paid', 'r-1', id, 'USER', 'Monthly', 30, 19900, 'paid', 'pay_Order', now() FROM users
      UNION ALL
      SELECT 'order_Later', 'r-2', id, 'USER', 'Monthly', 30, 19900, 'created', NULL, NULL FROM users;
      INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
                                 target_key, plan_type, duration_days, amount_paise, status)
      SELECT 'sub_1', 'plan_x', id, 'USER', 'user:9001', 'Monthly', 30, 19900, 'active' FROM users;
      INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source)
      SELECT id, 'pay_Charge', 19900, 'INR', 'webhook' FROM subscriptions`);

    // This version names the payment alone.
    await database().query(`
      INSERT INTO payment_refunds (refund_id, payment_id, amount_paise, status, processed_at)
      VALUES ('rfnd_Order', 'pay_Order', 500, 'processed', now()), ('rfnd_Charge', 'pay_Charge', 500, 'processed', now());
      INSERT INTO payment_disputes (dispute_id, payment_id, status, opened) VALUES ('disp_Charge', 'pay_Charge', 'open', true)`);
    // A refund and a dispute that came before their payment was recorded: the order learns it in the same
    // transaction (or later), and the pair follows.
    await database().transaction(async (transaction) => {
      await database().query(
        `INSERT INTO payment_refunds (refund_id, payment_id, amount_paise, status, processed_at)
         VALUES ('rfnd_Later', 'pay_Later', 500, 'processed', now());
         INSERT INTO payment_disputes (dispute_id, payment_id, status, opened) VALUES ('disp_Later', 'pay_Later', 'lost', true)`,
        { transaction },
      );
      expect(await owners('payment_refunds', 'refund_id', transaction)).toContainEqual({
        key: 'rfnd_Later',
        payment_id: 'pay_Later',
        order: null,
        charge: null,
      });
      await database().query(
        `UPDATE orders SET status = 'refunded', payment_id = 'pay_Later', paid_at = now()
         WHERE processor_order_id = 'order_Later'`,
        { transaction },
      );
    });
    // An older version names the order alone, as it always did (060's trigger finds the payment).
    await database().query(`
      INSERT INTO payment_disputes (dispute_id, order_id, status, opened)
      SELECT 'disp_Old', id, 'open', true FROM orders WHERE processor_order_id = 'order_Paid'`);

    expect(await owners('payment_refunds', 'refund_id')).toEqual([
      { key: 'rfnd_Charge', payment_id: 'pay_Charge', order: null, charge: 'pay_Charge' },
      { key: 'rfnd_Later', payment_id: 'pay_Later', order: 'order_Later', charge: null },
      { key: 'rfnd_Order', payment_id: 'pay_Order', order: 'order_Paid', charge: null },
    ]);
    expect(await owners('payment_disputes', 'dispute_id')).toEqual([
      { key: 'disp_Charge', payment_id: 'pay_Charge', order: null, charge: 'pay_Charge' },
      { key: 'disp_Later', payment_id: 'pay_Later', order: 'order_Later', charge: null },
      { key: 'disp_Old', payment_id: 'pay_Order', order: 'order_Paid', charge: null },
    ]);

    // A row still has one owner at most.
    await expect(
      database().query(`
        INSERT INTO payment_refunds (payment_id, order_id, charge_id, amount_paise, status)
        SELECT 'pay_Order', o.id, c.id, 100, 'requested' FROM orders o, subscription_charges c
        WHERE o.processor_order_id = 'order_Paid'`),
    ).rejects.toThrow(/payment_refunds_one_owner/);

    // Run again after a failure halfway, and back down: the rows stay as they are.
    await migrator.down({ to: '072-refunds-disputes-by-payment-alone' });
    await migrator.up();
    await migrator.up();
    expect(await owners('payment_refunds', 'refund_id')).toHaveLength(3);
  });
});

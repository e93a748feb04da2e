import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../../src/core/db/migrator';
import { useEmptyDatabase } from '../../support/empty-database';

jest.setTimeout(30_000);

describe('migration 059: payments', () => {
  const database = useEmptyDatabase('payments_migration');

  const payments = () =>
    database().query(
      `SELECT payment_id, source, kind, amount_paise, category, plan_type, days, tier, slots,
              (order_id IS NOT NULL) AS of_order, (charge_id IS NOT NULL) AS of_charge
       FROM payments ORDER BY payment_id`,
      { type: QueryTypes.SELECT },
    );

  it('copies the money already received, and every payment recorded after it by either source', async () => {
    const migrator = createMigrator(database());
    await migrator.up({ to: '058-renewal-notices' });
    await database().query(`
      INSERT INTO users (provider_id, username) VALUES ('9001', 'buyer');
      INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, guild_id, plan_type,
                          duration_days, amount_paise, status, payment_id, paid_at, slots)
      SELECT 'order_Paid0001', 'r-1', id, 'USER', NULL, 'Monthly', 30, 19900, 'paid', 'pay_Order0001', now(), 1
        FROM users
      UNION ALL
      SELECT 'order_Bundle0001', 'r-2', id, 'SERVER', NULL, 'Monthly', 30, 49900, 'refunded',
             'pay_Bundle0001', now(), 3 FROM users
      UNION ALL
      SELECT 'order_Unpaid0001', 'r-3', id, 'USER', NULL, 'Monthly', 30, 19900, 'created', NULL, NULL, 1
        FROM users;
      INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
                                 target_key, plan_type, duration_days, amount_paise, status)
      SELECT 'sub_Legacy0001', 'plan_x', id, 'USER', 'user:9001', 'Monthly', 30, 19900, 'active' FROM users;
      INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source)
      SELECT id, 'pay_Charge0001', 19900, 'INR', 'webhook' FROM subscriptions`);

    await migrator.up();

    const row = (paymentId: string, source: string, kind: string, amount: number, slots = 1) => ({
      payment_id: paymentId,
      source,
      kind,
      amount_paise: amount,
      category: source === 'order' && slots > 1 ? 'SERVER' : 'USER',
      plan_type: 'Monthly',
      days: 30,
      tier: 'premium',
      slots,
      of_order: source === 'order',
      of_charge: source === 'charge',
    });
    expect(await payments()).toEqual([
      row('pay_Bundle0001', 'order', 'bundle', 49900, 3),
      row('pay_Charge0001', 'charge', 'single', 19900),
      row('pay_Order0001', 'order', 'single', 19900),
    ]);

    // Paid afterwards, by this version or one still running beside it: the triggers record it.
    await database().query(`
      UPDATE orders SET status = 'paid', payment_id = 'pay_Late0001', paid_at = now()
        WHERE processor_order_id = 'order_Unpaid0001';
      INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source)
      SELECT id, 'pay_Charge0002', 19900, 'INR', 'webhook' FROM subscriptions;
      UPDATE orders SET status = 'refunded' WHERE processor_order_id = 'order_Paid0001'`);
    expect(await payments()).toEqual([
      row('pay_Bundle0001', 'order', 'bundle', 49900, 3),
      row('pay_Charge0001', 'charge', 'single', 19900),
      row('pay_Charge0002', 'charge', 'single', 19900),
      row('pay_Late0001', 'order', 'single', 19900),
      row('pay_Order0001', 'order', 'single', 19900),
    ]);

    // Run again after a failure halfway: nothing is copied twice.
    await migrator.down({ to: '058-renewal-notices' });
    await migrator.up();
    expect(await payments()).toHaveLength(5);
  });

  it('names the payment of every dispute, those there before it and those an older version writes', async () => {
    const migrator = createMigrator(database());
    await migrator.down({ to: '059-payments' });
    await database().query(`
      INSERT INTO payment_disputes (dispute_id, order_id, status, opened)
      SELECT 'disp_Order0001', id, 'open', true FROM orders WHERE payment_id = 'pay_Order0001';
      INSERT INTO payment_disputes (dispute_id, charge_id, status, opened)
      SELECT 'disp_Charge0001', id, 'won', true FROM subscription_charges WHERE payment_id = 'pay_Charge0001'`);

    await migrator.up();
    // A version still running beside this one names only the order.
    await database().query(`
      INSERT INTO payment_disputes (dispute_id, order_id, status, opened)
      SELECT 'disp_Late0001', id, 'open', true FROM orders WHERE payment_id = 'pay_Late0001'`);

    expect(
      await database().query('SELECT dispute_id, payment_id FROM payment_disputes ORDER BY dispute_id', {
        type: QueryTypes.SELECT,
      }),
    ).toEqual([
      { dispute_id: 'disp_Charge0001', payment_id: 'pay_Charge0001' },
      { dispute_id: 'disp_Late0001', payment_id: 'pay_Late0001' },
      { dispute_id: 'disp_Order0001', payment_id: 'pay_Order0001' },
    ]);
  });
});

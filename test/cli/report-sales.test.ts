import { QueryTypes } from 'sequelize';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser, snowflake } from '../support/fixtures';
import { json, premium } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore({ REPORT_TIMEZONE: 'Asia/Kolkata' });

/** Priya's Custom order of ₹1,999.00, ₹500.00 of it refunded, and an open dispute on it. */
async function refundedSale() {
  const buyer = await createUser({ username: 'priya' });
  const order = await createOrderRow(buyer.id, {
    planType: 'Custom',
    months: 10,
    durationDays: 300,
    amountPaise: 199_900,
  });
  const paymentId = `pay_${snowflake()}`;
  await order.update({ status: 'paid', paymentId, paidAt: new Date('2026-11-20T06:00:00Z') });
  await getCore().sequelize.query(
    `INSERT INTO payment_refunds (refund_id, order_id, payment_id, amount_paise, status, processed_at)
     VALUES ($1, $2, $3, 50000, 'processed', now())`,
    { bind: [`rfnd_${snowflake()}`, order.id, paymentId], type: QueryTypes.INSERT },
  );
  await getCore().sequelize.query(
    `INSERT INTO payment_disputes (dispute_id, order_id, status, opened, created_at, updated_at)
     VALUES ('disp_Cli1', $1, 'open', true, now(), now())`,
    { bind: [order.id], type: QueryTypes.INSERT },
  );
  return { buyer, order };
}

describe('premium report sales, customers, export', () => {
  it('lists the newest sales and the customers, the buyer by name, money as ₹1,999.00', async () => {
    const { buyer, order } = await refundedSale();

    const sales = await premium(['report', 'sales']);
    const salesJson = await premium(['report', 'sales', '--limit', '1', '--json']);
    const customers = await premium(['report', 'customers']);
    const disputes = await premium(['report', 'disputes']);

    expect(sales.code).toBe(0);
    expect(sales.stdout).toMatch(
      new RegExp(
        `priya \\(${buyer.providerId}\\)\\s+${order.processorOrderId}\\s+USER\\s+Custom\\s+₹1,999.00\\s+₹500.00\\s+partly refunded`,
      ),
    );
    expect(json(salesJson)).toEqual({
      sales: [expect.objectContaining({ orderId: order.processorOrderId, amount: 1999, refunded: 500 })],
      nextCursor: null,
    });
    expect(customers.stdout).toMatch(
      new RegExp(`priya \\(${buyer.providerId}\\)\\s+Custom\\s+1\\s+.*₹1,999.00\\s+₹1,499.00`),
    );
    expect(disputes.stdout).toContain(`priya (${buyer.providerId})`);
  });

  it('exports orders of a range as CSV, or as JSON rows; refuses a bad range with exit 1', async () => {
    const { order } = await refundedSale();

    const csv = await premium(['report', 'export', 'orders', '--from', '2026-11-01', '--to', '2026-11-30']);
    const rows = await premium([
      'report',
      'export',
      'revenue',
      '--from',
      '2026-11-20',
      '--to',
      '2026-11-20',
      '--json',
    ]);
    const backwards = await premium([
      'report',
      'export',
      'orders',
      '--from',
      '2026-11-30',
      '--to',
      '2026-11-01',
    ]);
    const unknown = await premium([
      'report',
      'export',
      'payouts',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
    ]);

    expect(csv.code).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toMatch(/^order_id,state,/);
    expect(lines[1]).toMatch(
      new RegExp(`^${order.processorOrderId},partly refunded,.*,1999,0,,1999,500,pay_`),
    );
    expect(json<unknown[]>(rows)).toEqual([
      expect.objectContaining({ day: '2026-11-20', gross_inr: 1999, payments: 1 }),
    ]);
    expect([backwards.code, backwards.stderr]).toEqual([
      1,
      expect.stringContaining('from (2026-11-30) is after to (2026-11-01)'),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('Allowed choices are revenue, orders, subscribers');
  });
});

import { QueryTypes } from 'sequelize';
import { csvLines } from '../../../src/core/csv';
import { customers, exportTable, recentSales } from '../../../src/core/reports';
import { useTestCore } from '../../support/context';
import { createUser, snowflake } from '../../support/fixtures';

const core = useTestCore({ REPORT_TIMEZONE: 'Asia/Kolkata' });

async function insert(sql: string, bind: unknown[]): Promise<number> {
  const rows = await core().sequelize.query<{ id: number }>(`${sql} RETURNING id`, {
    bind,
    type: QueryTypes.SELECT,
  });
  return Number(rows[0]!.id);
}

function order(buyerId: number, paise: number, paidAt: string | null, plan = 'Monthly') {
  const n = snowflake();
  return insert(
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days,
       amount_paise, status, payment_id, paid_at, created_at)
     VALUES ($1, $2, $3, 'USER', $4, 30, $5, $6, $7, $8::timestamptz, COALESCE($8::timestamptz, '2026-03-02T00:00:00Z'))`,
    [
      `order_${n}`,
      `rcpt_${n}`,
      buyerId,
      plan,
      paise,
      paidAt ? 'paid' : 'created',
      paidAt && `pay_${n}`,
      paidAt,
    ],
  );
}

async function subscriptionCharges(buyerId: number, paise: number, at: string[]) {
  const id = await insert(
    `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
       target_key, plan_type, duration_days, amount_paise, status, created_at)
     VALUES ('sub_Yearly1', 'plan_x', $1, 'USER', 'user-target', 'Yearly', 365, $2, 'active', $3)`,
    [buyerId, paise, at[0]],
  );
  const charges = [];
  for (const when of at) {
    charges.push(
      await insert(
        `INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source, created_at)
         VALUES ($1, $2, $3, 'INR', 'webhook', $4)`,
        [id, `pay_${snowflake()}`, paise, when],
      ),
    );
  }
  return charges;
}

function refund(owner: { orderId: number } | { chargeId: number }, paise: number) {
  return core().sequelize.query(
    `INSERT INTO payment_refunds (refund_id, order_id, charge_id, payment_id, amount_paise, status, processed_at)
     SELECT $1, $2, $3, COALESCE(o.payment_id, c.payment_id), $4, 'processed', '2026-03-20T00:00:00Z'
     FROM (SELECT 1) one LEFT JOIN orders o ON o.id = $2 LEFT JOIN subscription_charges c ON c.id = $3`,
    {
      bind: [
        `rfnd_${snowflake()}`,
        'orderId' in owner ? owner.orderId : null,
        'chargeId' in owner ? owner.chargeId : null,
        paise,
      ],
    },
  );
}

let asha: { id: number; providerId: string };
let mallory: { id: number; providerId: string };

/** Asha: two Monthly orders, ₹100 of one refunded. Mallory (a name that is a formula): Yearly twice, one refunded. */
beforeEach(async () => {
  asha = await createUser({ username: 'asha' });
  mallory = await createUser({ username: '=HYPERLINK("http://evil")' });
  const first = await order(asha.id, 19_900, '2026-03-01T10:00:00Z');
  await order(asha.id, 19_900, '2026-03-05T10:00:00Z');
  await order(asha.id, 19_900, null); // never paid: no sale
  await refund({ orderId: first }, 10_000);
  const [, renewal] = await subscriptionCharges(mallory.id, 199_900, [
    '2026-03-03T10:00:00Z',
    '2026-03-04T10:00:00Z',
  ]);
  await refund({ chargeId: renewal! }, 199_900);
  await core().sequelize.query(`UPDATE subscription_charges SET status = 'refunded' WHERE id = $1`, {
    bind: [renewal],
  });
});

describe('recent sales', () => {
  it('lists paid orders and subscription charges newest first, with the buyer by name, a page at a time', async () => {
    const first = await recentSales(core(), { limit: 3 });
    const second = await recentSales(core(), { limit: 3, cursor: first.nextCursor! });

    const shown = (page: typeof first) =>
      page.rows.map((sale) => [sale.at, sale.kind, sale.buyerName, sale.planType, sale.amount, sale.state]);
    expect(shown(first)).toEqual([
      ['2026-03-05T10:00:00.000Z', 'order', 'asha', 'Monthly', 199, 'paid'],
      ['2026-03-04T10:00:00.000Z', 'charge', '=HYPERLINK("http://evil")', 'Yearly', 1999, 'refunded'],
      ['2026-03-03T10:00:00.000Z', 'charge', '=HYPERLINK("http://evil")', 'Yearly', 1999, 'paid'],
    ]);
    expect(shown(second)).toEqual([
      ['2026-03-01T10:00:00.000Z', 'order', 'asha', 'Monthly', 199, 'partly refunded'],
    ]);
    expect(second.rows[0]).toMatchObject({ refunded: 100, buyerProviderId: asha.providerId });
    expect(first.rows[1]).toMatchObject({ subscriptionId: 'sub_Yearly1', orderId: null, refunded: 1999 });
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a cursor of another list', async () => {
    const page = await customers(core(), { limit: 1 });
    await expect(recentSales(core(), { limit: 1, cursor: page.nextCursor! })).rejects.toMatchObject({
      code: 'BAD_CURSOR',
    });
  });
});

describe('customers', () => {
  it('ranks buyers by lifetime value net of refunds, with what they bought, a page at a time', async () => {
    const first = await customers(core(), { limit: 1 });
    const second = await customers(core(), { limit: 1, cursor: first.nextCursor! });

    expect(first.rows).toEqual([
      {
        providerId: mallory.providerId,
        buyerName: '=HYPERLINK("http://evil")',
        plans: ['Yearly'],
        payments: 2,
        gross: 3998,
        lifetimeValue: 1999,
        firstPurchaseAt: '2026-03-03T10:00:00.000Z',
        lastPurchaseAt: '2026-03-04T10:00:00.000Z',
      },
    ]);
    expect(second.rows).toEqual([
      expect.objectContaining({ providerId: asha.providerId, payments: 2, gross: 398, lifetimeValue: 298 }),
    ]);
    expect(second.nextCursor).toBeNull();
  });
});

async function csv(kind: string, from: string, to: string): Promise<string> {
  const table = exportTable(core(), kind, { from, to });
  let text = '';
  for await (const line of csvLines(table.columns, table.rows)) text += line;
  return text;
}

describe('CSV exports', () => {
  it('orders of the range (India days), quoted, a formula-like name kept as text', async () => {
    const [[order]] = (await core().sequelize.query(
      `UPDATE orders SET buyer_user_id = $1 WHERE paid_at = '2026-03-05T10:00:00Z' RETURNING processor_order_id AS id`,
      { bind: [mallory.id] },
    )) as [{ id: string }[], unknown];

    const lines = (await csv('orders', '2026-03-05', '2026-03-31')).split('\r\n');

    expect(lines[0]).toBe(
      'order_id,state,created_at,paid_at,buyer_id,buyer_username,category,guild_id,plan,list_price_inr,discount_inr,offer_code,amount_inr,refunded_inr,payment_id',
    );
    expect(lines.slice(1, -1)).toEqual([
      expect.stringContaining(
        `${order!.id},paid,2026-03-05T10:00:00.000Z,2026-03-05T10:00:00.000Z,${mallory.providerId},"'=HYPERLINK(""http://evil"")",USER,,Monthly,199,0,,199,0,pay_`,
      ),
    ]);
    expect(lines.at(-1)).toBe('');
  });

  it('revenue by day and the subscribers of the range', async () => {
    const revenue = (await csv('revenue', '2026-03-01', '2026-03-03')).split('\r\n');
    expect(revenue).toEqual([
      'day,gross_inr,refunded_inr,disputed_inr,net_inr,payments,net_one_off_inr,net_subscriptions_inr,net_user_inr,net_server_inr,net_single_inr,net_bundle_inr,net_upgrade_inr,net_gift_inr',
      '2026-03-01,199,0,0,199,1,199,0,199,0,199,0,0,0',
      '2026-03-02,0,0,0,0,0,0,0,0,0,0,0,0,0',
      '2026-03-03,1999,0,0,1999,1,0,1999,1999,0,1999,0,0,0',
      '',
    ]);
    const subscribers = (await csv('subscribers', '2026-03-01', '2026-03-31')).split('\r\n');
    expect(subscribers[1]).toBe(
      `sub_Yearly1,active,no,2026-03-03T10:00:00.000Z,,${mallory.providerId},"'=HYPERLINK(""http://evil"")",USER,,premium,Yearly,1999,2,3998`,
    );
    expect(await csv('subscribers', '2026-02-01', '2026-02-28')).toBe(`${subscribers[0]}\r\n`);
  });

  it('refuses an unknown export or a bad range before reading anything', () => {
    expect(() => exportTable(core(), 'payouts', { from: '2026-03-01', to: '2026-03-02' })).toThrow(
      expect.objectContaining({ code: 'INVALID_EXPORT' }),
    );
    expect(() => exportTable(core(), 'orders', { from: '2026-03-05', to: '2026-03-01' })).toThrow(
      expect.objectContaining({ code: 'INVALID_RANGE' }),
    );
    expect(() => exportTable(core(), 'orders', { from: '2026-02-30', to: '2026-03-01' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DATE' }),
    );
  });
});

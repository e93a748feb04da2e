import { QueryTypes } from 'sequelize';
import { recentSales, revenueReport } from '../../../src/core/reports';
import { useTestCore } from '../../support/context';
import { createUser, snowflake } from '../../support/fixtures';

const core = useTestCore({ REPORT_TIMEZONE: 'Asia/Kolkata' });

async function query<T extends object>(sql: string, bind: unknown[] = []): Promise<T[]> {
  return core().sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}

/** A paid order; `slots` over 1 makes a bundle, `upgradeFrom` an upgrade (payments.kind, by 059's and 069's triggers). */
async function paidOrder(
  buyerId: number,
  paise: number,
  paidAt: string,
  { slots = 1, upgradeFrom = null }: { slots?: number; upgradeFrom?: string | null } = {},
): Promise<string> {
  const n = snowflake();
  await query(
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, tier, duration_days,
       amount_paise, status, payment_id, paid_at, slots, upgrade_from_tier)
     VALUES ($1, $2, $3, $4, $5, $6, 30, $7, 'paid', $8, $9, $10, $11) RETURNING id`,
    [
      `order_${n}`,
      `rcpt_${n}`,
      buyerId,
      slots > 1 ? 'SERVER' : 'USER',
      upgradeFrom ? 'ProMonthly' : 'Monthly',
      upgradeFrom ? 'pro' : 'premium',
      paise,
      `pay_${n}`,
      paidAt,
      slots,
      upgradeFrom,
    ],
  );
  return `pay_${n}`;
}

const figures = (gross: number, refunded: number, disputed: number, payments: number) => ({
  gross,
  refunded,
  disputed,
  net: gross - refunded - disputed,
  payments,
});

describe('what each payment bought, in the reports', () => {
  let buyer: { id: number; providerId: string };
  let bundle: string;
  let upgrade: string;

  beforeEach(async () => {
    buyer = await createUser({ username: 'meera' });
    await paidOrder(buyer.id, 19_900, '2026-03-01T10:00:00Z');
    bundle = await paidOrder(buyer.id, 49_900, '2026-03-02T10:00:00Z', { slots: 3 });
    upgrade = await paidOrder(buyer.id, 10_000, '2026-03-03T10:00:00Z', { upgradeFrom: 'premium' });
    // A refund and a lost dispute named by their payment alone, as the service writes them now.
    await query(
      `INSERT INTO payment_refunds (refund_id, payment_id, amount_paise, status, processed_at)
       VALUES ($1, $2, 2000, 'processed', '2026-03-04T10:00:00Z')`,
      [`rfnd_${snowflake()}`, upgrade],
    );
    await query(
      `INSERT INTO payment_disputes (dispute_id, payment_id, status, opened, created_at, updated_at)
       VALUES ($1, $2, 'lost', true, '2026-03-05T10:00:00Z', '2026-03-05T10:00:00Z')`,
      [`disp_${snowflake()}`, bundle],
    );
  });

  it('splits revenue by purchase, a refund or dispute counted with its payment, adding up to the figures', async () => {
    const report = await revenueReport(core(), { from: '2026-03-01', to: '2026-03-31', by: 'month' });

    expect(report.totals.byPurchase).toEqual({
      single: figures(199, 0, 0, 1),
      bundle: figures(499, 0, 499, 1),
      upgrade: figures(100, 20, 0, 1),
      gift: figures(0, 0, 0, 0),
    });
    expect(report.totals).toMatchObject(figures(798, 20, 499, 3));
    expect(report.totals.byKind.oneOff).toEqual(figures(798, 20, 499, 3));
    expect(report.periods[0]!.byPurchase).toEqual(report.totals.byPurchase);
    expect(report.totals.byTier).toEqual({ premium: figures(698, 0, 499, 2), pro: figures(100, 20, 0, 1) });
  });

  it('shows what each sale bought', async () => {
    const { rows } = await recentSales(core(), { limit: 10 });

    expect(rows.map((sale) => [sale.paymentId, sale.purchase, sale.state])).toEqual([
      [upgrade, 'upgrade', 'partly refunded'],
      [bundle, 'bundle', 'paid'],
      [expect.stringMatching(/^pay_/), 'single', 'paid'],
    ]);
  });

  it('keeps a charge as the plan and tier it was charged as when its subscription changes plan', async () => {
    const [subscription] = await query<{ id: string }>(
      `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
         target_key, plan_type, duration_days, amount_paise, status)
       VALUES ('sub_Switch', 'plan_x', $1, 'USER', 'switch-target', 'Monthly', 30, 19900, 'active') RETURNING id`,
      [buyer.id],
    );
    await query(
      `INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source, created_at)
       VALUES ($1, $2, 19900, 'INR', 'webhook', '2026-03-06T10:00:00Z')`,
      [subscription!.id, `pay_${snowflake()}`],
    );
    await query(`UPDATE subscriptions SET plan_type = 'ProMonthly', tier = 'pro' WHERE id = $1`, [
      subscription!.id,
    ]);

    const report = await revenueReport(core(), { from: '2026-03-06', to: '2026-03-06' });
    const [sale] = (await recentSales(core(), { limit: 1 })).rows;

    expect(report.totals.byTier).toEqual({ premium: figures(199, 0, 0, 1) });
    expect(report.totals.byPlan).toEqual({ Monthly: figures(199, 0, 0, 1) });
    expect(sale).toMatchObject({ subscriptionId: 'sub_Switch', tier: 'premium', planType: 'Monthly' });
  });
});

import { QueryTypes } from 'sequelize';
import { today } from '../../../src/core/reports/dates';
import { mrrByMonth } from '../../../src/core/reports/mrr-history';
import { useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';

const core = useTestCore({ REPORT_TIMEZONE: 'Asia/Kolkata' });

/** `YYYY-MM` of `back` months before the current one in the report's zone, and noon UTC on its 15th. */
function monthBack(back: number): { period: string; midMonth: string } {
  const [year, month] = today('Asia/Kolkata').split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 - back, 1));
  const period = first.toISOString().slice(0, 7);
  return { period, midMonth: `${period}-15T12:00:00Z` };
}

async function subscription(
  name: string,
  buyerId: number,
  plan: 'Monthly' | 'Yearly',
  history: [string, string][],
  firstChargeAt: string | null = null,
) {
  const [{ id }] = (await core().sequelize.query<{ id: number }>(
    `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category, target_key,
       plan_type, duration_days, amount_paise, status)
     VALUES ($1, 'plan_x', $2, 'USER', $3, $4, $5, $6, $7) RETURNING id`,
    {
      bind: [
        name,
        buyerId,
        `${name}-target`,
        plan,
        plan === 'Monthly' ? 30 : 365,
        plan === 'Monthly' ? 19_900 : 199_900,
        history.at(-1)![0],
      ],
      type: QueryTypes.SELECT,
    },
  )) as [{ id: number }];
  // The history as it happened, not as the insert's trigger wrote it.
  await core().sequelize.query('DELETE FROM subscription_status_changes WHERE subscription_id = $1', {
    bind: [id],
  });
  for (const [status, at] of history)
    await core().sequelize.query(
      'INSERT INTO subscription_status_changes (subscription_id, status, changed_at) VALUES ($1, $2, $3)',
      { bind: [id, status, at] },
    );
  // MRR counts a subscription from its first paid charge.
  if (firstChargeAt)
    await core().sequelize.query(
      `INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source, created_at)
       VALUES ($1, $2, 1, 'INR', 'webhook', $3)`,
      { bind: [id, `pay_${name}`, firstChargeAt] },
    );
}

describe('MRR by month (the console chart)', () => {
  it('counts each live subscription at each month end by its status then, Yearly as 1/12', async () => {
    const buyer = await createUser();
    const firstCharge = monthBack(3).midMonth.replace('12:00', '12:05');
    await subscription(
      'sub_monthly',
      buyer.id,
      'Monthly',
      [
        ['authenticated', monthBack(3).midMonth],
        ['active', firstCharge],
      ],
      firstCharge,
    );
    await subscription(
      'sub_yearly',
      buyer.id,
      'Yearly',
      [
        ['active', monthBack(2).midMonth],
        ['cancelled', monthBack(1).midMonth],
      ],
      monthBack(2).midMonth,
    );
    // In its trial since four months: live, never charged, no MRR.
    await subscription('sub_trialing', buyer.id, 'Monthly', [['authenticated', monthBack(4).midMonth]]);
    await subscription('sub_never_paid', buyer.id, 'Monthly', [['created', new Date().toISOString()]]);

    const months = await mrrByMonth(core());

    expect(months.map(({ period }) => period)).toEqual(
      Array.from({ length: 12 }, (_, index) => monthBack(11 - index).period),
    );
    const byPeriod = Object.fromEntries(months.map(({ period, mrr }) => [period, mrr]));
    expect(months.slice(0, 8).every(({ mrr }) => mrr === 0)).toBe(true);
    // 199 + 1999/12 = 199 + 166.58.
    expect([3, 2, 1, 0].map((back) => byPeriod[monthBack(back).period])).toEqual([199, 365.58, 199, 199]);
  });
});

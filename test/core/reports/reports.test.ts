import { QueryTypes } from 'sequelize';
import { openDisputes, revenueReport, subscribersReport } from '../../../src/core/reports';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';

const core = useTestCore({ REPORT_TIMEZONE: 'Asia/Kolkata' });

async function insert(sql: string, bind: unknown[] = []): Promise<number> {
  const rows = await core().sequelize.query<{ id: number }>(`${sql} RETURNING id`, {
    bind,
    type: QueryTypes.SELECT,
  });
  return Number(rows[0]!.id);
}

let buyerId: number;
let buyerProviderId: string;
const guildId = snowflake();

async function paidOrder(
  category: 'USER' | 'SERVER',
  plan: 'Monthly' | 'Yearly',
  paise: number,
  paidAt: string,
) {
  const n = snowflake();
  return insert(
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, guild_id, plan_type, duration_days,
       amount_paise, status, payment_id, paid_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'paid', $9, $10)`,
    [
      `order_${n}`,
      `rcpt_${n}`,
      buyerId,
      category,
      category === 'SERVER' ? guildId : null,
      plan,
      plan === 'Monthly' ? 30 : 365,
      paise,
      `pay_${n}`,
      paidAt,
    ],
  );
}

async function subscription(
  name: string,
  category: 'USER' | 'SERVER',
  plan: 'Monthly' | 'Yearly',
  status: string,
  changes: [string, string][],
  currentEnd: string | null = null,
) {
  const id = await insert(
    `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category, guild_id,
       target_key, plan_type, duration_days, amount_paise, status, current_end)
     VALUES ($1, 'plan_x', $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      name,
      buyerId,
      category,
      category === 'SERVER' ? snowflake() : null,
      `${name}-target`,
      plan,
      plan === 'Monthly' ? 30 : 365,
      plan === 'Monthly' ? 19_900 : 199_900,
      status,
      currentEnd,
    ],
  );
  // The history as it happened, not as the seeding's inserts wrote it.
  await core().sequelize.query('DELETE FROM subscription_status_changes WHERE subscription_id = $1', {
    bind: [id],
  });
  for (const [changed, at] of changes) {
    await insert(
      'INSERT INTO subscription_status_changes (subscription_id, status, changed_at) VALUES ($1, $2, $3)',
      [id, changed, at],
    );
  }
  return id;
}

function charge(subscriptionId: number, paise: number, at: string) {
  return insert(
    `INSERT INTO subscription_charges (subscription_id, payment_id, amount_paise, currency, source, created_at)
     VALUES ($1, $2, $3, 'INR', 'webhook', $4)`,
    [subscriptionId, `pay_${snowflake()}`, paise, at],
  );
}

function refund(owner: { orderId: number } | { chargeId: number }, paise: number, processedAt: string) {
  return insert(
    // The refund of the order's or charge's own payment, as Razorpay would name it.
    `INSERT INTO payment_refunds (refund_id, order_id, charge_id, payment_id, amount_paise, status, processed_at)
     SELECT $1, $2, $3, p.payment_id, $4, 'processed', $5 FROM payments p
     WHERE p.order_id = $2::bigint OR p.charge_id = $3::bigint`,
    [
      `rfnd_${snowflake()}`,
      'orderId' in owner ? owner.orderId : null,
      'chargeId' in owner ? owner.chargeId : null,
      paise,
      processedAt,
    ],
  );
}

function dispute(
  owner: { orderId: number } | { chargeId: number },
  status: 'open' | 'lost',
  at: string,
  { paise = null, respondBy = null }: { paise?: number | null; respondBy?: string | null } = {},
) {
  return core().sequelize.query(
    `INSERT INTO payment_disputes (dispute_id, order_id, charge_id, status, opened, amount_paise, respond_by,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, true, $5, $6, $7, $7)`,
    {
      bind: [
        `disp_${snowflake()}`,
        'orderId' in owner ? owner.orderId : null,
        'chargeId' in owner ? owner.chargeId : null,
        status,
        paise,
        respondBy,
        at,
      ],
    },
  );
}

/** The seeded books, each figure worked out by hand in the tests below. Times are UTC; IST is +05:30. */
async function seed() {
  const buyer = await createUser();
  [buyerId, buyerProviderId] = [buyer.id, buyer.providerId];

  const o1 = await paidOrder('USER', 'Monthly', 19_900, '2026-03-01T10:00:00Z'); // IST 1 Mar 15:30
  const o2 = await paidOrder('SERVER', 'Yearly', 199_900, '2026-03-01T19:00:00Z'); // IST 2 Mar 00:30
  const o3 = await paidOrder('USER', 'Monthly', 19_900, '2026-02-28T18:00:00Z'); // IST 28 Feb 23:30
  await insert(
    `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days, amount_paise)
     VALUES ('order_unpaid', 'rcpt_unpaid', $1, 'USER', 'Monthly', 30, 19900)`,
    [buyerId],
  );
  await refund({ orderId: o2 }, 50_000, '2026-03-05T10:00:00Z');
  await dispute({ orderId: o3 }, 'lost', '2026-03-03T05:00:00Z'); // no amount: the payment's
  await dispute({ orderId: o1 }, 'open', '2026-03-20T05:00:00Z', {
    paise: 19_900,
    respondBy: '2026-03-25T18:29:59Z',
  });

  const s1 = await subscription('sub_S1', 'SERVER', 'Monthly', 'active', [
    ['created', '2026-01-20T00:00:00Z'],
    ['authenticated', '2026-01-20T00:05:00Z'],
    ['active', '2026-02-10T00:00:00Z'],
  ]);
  await charge(s1, 19_900, '2026-02-10T00:00:00Z');
  const renewal = await charge(s1, 19_900, '2026-03-10T00:00:00Z');
  await refund({ chargeId: renewal }, 19_900, '2026-03-11T00:00:00Z');

  const s2 = await subscription('sub_S2', 'USER', 'Yearly', 'active', [
    ['created', '2026-03-14T00:00:00Z'],
    ['active', '2026-03-15T00:00:00Z'],
  ]);
  const yearly = await charge(s2, 199_900, '2026-03-15T00:00:00Z');
  await dispute({ chargeId: yearly }, 'lost', '2026-03-20T00:00:00Z', { paise: 5_000 });

  await subscription(
    'sub_S3',
    'USER',
    'Monthly',
    'halted',
    [
      ['created', '2026-01-05T00:00:00Z'],
      ['active', '2026-01-05T00:01:00Z'],
      ['pending', '2026-03-06T00:00:00Z'],
      ['halted', '2026-03-08T00:00:00Z'],
    ],
    '2026-03-05T00:00:00Z',
  );
  await subscription('sub_S4', 'USER', 'Monthly', 'cancelled', [
    ['created', '2026-02-01T00:00:00Z'],
    ['active', '2026-02-01T00:01:00Z'],
    ['cancelled', '2026-03-20T00:00:00Z'],
  ]);
  await subscription(
    'sub_S5',
    'SERVER',
    'Yearly',
    'pending',
    [
      ['created', '2026-02-03T00:00:00Z'],
      ['active', '2026-02-03T00:01:00Z'],
      ['pending', '2026-03-28T00:00:00Z'],
    ],
    '2026-03-27T00:00:00Z',
  );
  // One not yet authorised: neither live nor new.
  await subscription('sub_S6', 'USER', 'Monthly', 'created', [['created', '2026-03-02T00:00:00Z']]);

  const soon = new Date(Date.now() + DAY_MS).toISOString();
  const past = new Date(Date.now() - DAY_MS).toISOString();
  const other = await createUser();
  await insert('INSERT INTO user_premiums (user_id, expires_at) VALUES ($1, $2)', [buyerId, soon]);
  await insert('INSERT INTO user_premiums (user_id, expires_at) VALUES ($1, $2)', [other.id, past]);
  await insert('INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at) VALUES ($1, $2, $3)', [
    guildId,
    buyerId,
    soon,
  ]);
  // A record created inside a transaction that has not written it yet (version 0) is no premium.
  await insert(
    'INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version) VALUES ($1, $2, $3, 0)',
    [snowflake(), buyerId, soon],
  );
}

const zero = { gross: 0, refunded: 0, disputed: 0, net: 0, payments: 0 };

describe('revenue report', () => {
  beforeEach(seed);

  it('counts each day in REPORT_TIMEZONE: paid, refunded and lost disputes by the day they happened', async () => {
    const report = await revenueReport(core(), { from: '2026-03-01', to: '2026-03-05', by: 'day' });

    expect(report.timeZone).toBe('Asia/Kolkata');
    expect(
      report.periods.map(({ period, gross, refunded, disputed, net, payments }) => ({
        period,
        gross,
        refunded,
        disputed,
        net,
        payments,
      })),
    ).toEqual([
      // 10:00 UTC is still 1 March in India; 19:00 UTC on 1 March is already the 2nd.
      { period: '2026-03-01', gross: 199, refunded: 0, disputed: 0, net: 199, payments: 1 },
      { period: '2026-03-02', gross: 1999, refunded: 0, disputed: 0, net: 1999, payments: 1 },
      // The order paid on 28 February (IST) is lost on 3 March: its whole amount, Razorpay gave none.
      { period: '2026-03-03', ...zero, disputed: 199, net: -199 },
      { period: '2026-03-04', ...zero },
      { period: '2026-03-05', ...zero, refunded: 500, net: -500 },
    ]);
    expect(report.periods[1]!.byCategory).toEqual({
      USER: zero,
      SERVER: { gross: 1999, refunded: 0, disputed: 0, net: 1999, payments: 1 },
    });
    expect(report.totals).toMatchObject({
      gross: 2198,
      refunded: 500,
      disputed: 199,
      net: 1499,
      payments: 2,
    });
  });

  it('by month, split one-off / subscription and USER / SERVER', async () => {
    const report = await revenueReport(core(), { from: '2026-02-01', to: '2026-03-31', by: 'month' });

    expect(report.periods).toEqual([
      {
        period: '2026-02',
        gross: 398,
        refunded: 0,
        disputed: 0,
        net: 398,
        payments: 2,
        byKind: {
          oneOff: { ...zero, gross: 199, net: 199, payments: 1 },
          subscription: { ...zero, gross: 199, net: 199, payments: 1 },
        },
        byCategory: {
          USER: { ...zero, gross: 199, net: 199, payments: 1 },
          SERVER: { ...zero, gross: 199, net: 199, payments: 1 },
        },
        byTier: { premium: { ...zero, gross: 398, net: 398, payments: 2 } },
        byPlan: { Monthly: { ...zero, gross: 398, net: 398, payments: 2 } },
        byPurchase: {
          single: { ...zero, gross: 398, net: 398, payments: 2 },
          bundle: zero,
          upgrade: zero,
          gift: zero,
        },
      },
      {
        period: '2026-03',
        gross: 4396,
        refunded: 699,
        disputed: 249,
        net: 3448,
        payments: 4,
        byKind: {
          oneOff: { gross: 2198, refunded: 500, disputed: 199, net: 1499, payments: 2 },
          // A partly disputed charge loses what was disputed (₹50), not the whole charge.
          subscription: { gross: 2198, refunded: 199, disputed: 50, net: 1949, payments: 2 },
        },
        byCategory: {
          USER: { gross: 2198, refunded: 0, disputed: 249, net: 1949, payments: 2 },
          SERVER: { gross: 2198, refunded: 699, disputed: 0, net: 1499, payments: 2 },
        },
        byTier: { premium: { gross: 4396, refunded: 699, disputed: 249, net: 3448, payments: 4 } },
        // Monthly: o1 and S1's renewal paid, the renewal refunded, o3 (February's) lost; Yearly: o2 and S2.
        byPlan: {
          Monthly: { gross: 398, refunded: 199, disputed: 199, net: 0, payments: 2 },
          Yearly: { gross: 3998, refunded: 500, disputed: 50, net: 3448, payments: 2 },
        },
        byPurchase: {
          single: { gross: 4396, refunded: 699, disputed: 249, net: 3448, payments: 4 },
          bundle: zero,
          upgrade: zero,
          gift: zero,
        },
      },
    ]);
    expect(report.totals).toMatchObject({
      gross: 4794,
      refunded: 699,
      disputed: 249,
      net: 3846,
      payments: 6,
    });
  });

  it('splits by the tier and the plan each sale was made as; each split adds up to the figures', async () => {
    // A Pro order sold before its price or tier changed: it stays Pro and ProMonthly in the report.
    const n = snowflake();
    const pro = await insert(
      `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, tier, duration_days,
         amount_paise, status, payment_id, paid_at)
       VALUES ($1, $2, $3, 'USER', 'ProMonthly', 'pro', 30, 29950, 'paid', $4, '2026-03-04T06:00:00Z')`,
      [`order_${n}`, `rcpt_${n}`, buyerId, `pay_${n}`],
    );
    await refund({ orderId: pro }, 10_000, '2026-03-04T07:00:00Z');

    const report = await revenueReport(core(), { from: '2026-02-01', to: '2026-03-31', by: 'month' });

    expect(report.totals.byTier).toEqual({
      premium: { gross: 4794, refunded: 699, disputed: 249, net: 3846, payments: 6 },
      pro: { gross: 299.5, refunded: 100, disputed: 0, net: 199.5, payments: 1 },
    });
    expect(Object.keys(report.totals.byPlan)).toEqual(['Monthly', 'ProMonthly', 'Yearly']);
    expect(report.totals.byPlan.ProMonthly).toEqual(report.totals.byTier.pro);
    expect(report.totals).toMatchObject({
      gross: 5093.5,
      refunded: 799,
      disputed: 249,
      net: 4045.5,
      payments: 7,
    });
    const paise = (rupees: number) => Math.round(rupees * 100);
    for (const figures of [...report.periods, report.totals]) {
      for (const split of [figures.byTier, figures.byPlan]) {
        for (const name of ['gross', 'refunded', 'disputed', 'net', 'payments'] as const) {
          const sum = Object.values(split).reduce((total, part) => total + paise(part[name]), 0);
          expect(sum).toBe(paise(figures[name]));
        }
      }
    }
  });

  it('refuses days that are not days and a range that ends before it starts', async () => {
    await expect(revenueReport(core(), { from: '2026-02-30' })).rejects.toMatchObject({
      code: 'INVALID_DATE',
    });
    await expect(revenueReport(core(), { from: '2026-03-02', to: '2026-03-01' })).rejects.toMatchObject({
      code: 'INVALID_RANGE',
    });
  });

  it('refuses a range that starts before 2000 or spans more than 10 years, as a validation error', async () => {
    const refusal = (message: string) => ({ kind: 'validation', code: 'INVALID_RANGE', message });

    await expect(revenueReport(core(), { from: '1000-01-01', to: '2026-03-01' })).rejects.toMatchObject(
      refusal('from (1000-01-01) is before 2000-01-01, the first day a report covers'),
    );
    await expect(revenueReport(core(), { from: '1999-12-31', by: 'month' })).rejects.toMatchObject(
      refusal('from (1999-12-31) is before 2000-01-01, the first day a report covers'),
    );
    await expect(revenueReport(core(), { to: '1999-12-31' })).rejects.toMatchObject(
      refusal('to (1999-12-31) is before 2000-01-01, the first day a report covers'),
    );
    await expect(revenueReport(core(), { from: '2016-03-02', to: '2026-03-02' })).rejects.toMatchObject(
      refusal('from 2016-03-02 to 2026-03-02 is more than 10 years; a report covers 10 at most'),
    );
  });

  it('takes 10 years to the day, and from 2000 on when the default would start earlier', async () => {
    const longest = await revenueReport(core(), { from: '2016-04-01', to: '2026-03-31', by: 'month' });
    const early = await revenueReport(core(), { to: '2000-01-15' });

    expect(longest.periods).toHaveLength(120);
    expect(longest.totals.net).toBe(3846);
    expect(early).toMatchObject({ from: '2000-01-01', to: '2000-01-15' });
    expect(early.periods).toHaveLength(15);
  });

  it('defaults to the 90 days ending today', async () => {
    const report = await revenueReport(core());

    expect(report.periods).toHaveLength(90);
    expect(report.periods.at(-1)!.period).toBe(report.to);
  });
});

describe('subscribers report', () => {
  beforeEach(async () => {
    await seed();
    // S5's first charge (MRR counts a subscription from it); the revenue tests' seed leaves it out.
    const [s5] = await core().sequelize.query<{ id: number }>(
      "SELECT id FROM subscriptions WHERE processor_subscription_id = 'sub_S5'",
      { type: QueryTypes.SELECT },
    );
    await charge(s5!.id, 199_900, '2026-02-03T00:01:00Z');
  });

  it('counts live subscriptions, MRR, active premium, movements, churn and failing charges', async () => {
    const report = await subscribersReport(core(), { month: '2026-03' });

    expect(report.byStatus).toEqual({
      created: 1,
      authenticated: 0,
      active: 2,
      pending: 1,
      halted: 1,
      cancelled: 1,
      completed: 0,
      paused: 0,
      expired: 0,
    });
    expect(report.live).toBe(3);
    // ₹199 a month, plus two Yearly ₹1,999 counted as 1/12 each: 199 + 2 × 166.5833 = 532.17.
    expect(report.mrr).toBe(532.17);
    expect(report.activePremium).toEqual({ USER: 1, SERVER: 1 });
    expect(report.movements).toHaveLength(12);
    expect(report.movements.slice(-3)).toEqual([
      {
        period: '2026-01',
        liveAtStart: 0,
        new: 2,
        renewed: 0,
        cancelled: 0,
        halted: 0,
        completed: 0,
        churn: null,
      },
      {
        period: '2026-02',
        liveAtStart: 2,
        new: 2,
        renewed: 0,
        cancelled: 0,
        halted: 0,
        completed: 0,
        churn: 0,
      },
      // S1, S3, S4 and S5 live on 1 March; S3 halted and S4 cancelled in it.
      {
        period: '2026-03',
        liveAtStart: 4,
        new: 1,
        renewed: 1,
        cancelled: 1,
        halted: 1,
        completed: 0,
        churn: 0.5,
      },
    ]);
    expect(report.churn).toBe(0.5);
    expect(report.failingCharges).toEqual([
      {
        subscriptionId: 'sub_S3',
        status: 'halted',
        category: 'USER',
        providerId: buyerProviderId,
        buyerName: 'fan',
        guildId: null,
        planType: 'Monthly',
        amount: 199,
        currentEnd: '2026-03-05T00:00:00.000Z',
        graceUntil: '2026-03-08T00:00:00.000Z',
        since: '2026-03-08T00:00:00.000Z',
      },
      expect.objectContaining({
        subscriptionId: 'sub_S5',
        status: 'pending',
        amount: 1999,
        graceUntil: '2026-03-30T00:00:00.000Z',
        since: '2026-03-28T00:00:00.000Z',
      }),
    ]);
  });

  it('shows apart the MRR that renews, that ends with its cycle and that is failing', async () => {
    await core().sequelize.query(
      "UPDATE subscriptions SET cancel_at_cycle_end = true WHERE processor_subscription_id = 'sub_S2'",
    );

    const report = await subscribersReport(core(), { month: '2026-03' });

    // S1 renews (₹199); S2, Yearly, is cancelled at its cycle's end; S5, Yearly, is pending.
    expect(report.liveByStanding).toEqual({
      renewing: { subscriptions: 1, mrr: 199 },
      cancelling: { subscriptions: 1, mrr: 166.58 },
      failing: { subscriptions: 1, mrr: 166.58 },
    });
    expect(report.mrr).toBe(532.17);
  });

  it('refuses a month that is not one', async () => {
    await expect(subscribersReport(core(), { month: '2026-13' })).rejects.toMatchObject({
      code: 'INVALID_MONTH',
    });
  });

  it('refuses a month before 2000 as a validation error, where PostgreSQL would fail on year 0', async () => {
    for (const month of ['0000-01', '1999-12'])
      await expect(subscribersReport(core(), { month })).rejects.toMatchObject({
        kind: 'validation',
        code: 'INVALID_MONTH',
        message: `month must be 2000-01 or later, not "${month}"`,
      });
    const first = await subscribersReport(core(), { month: '2000-01' });
    expect(first.movements.map(({ period }) => period)).toEqual([
      ...Array.from({ length: 11 }, (_, index) => `1999-${String(index + 2).padStart(2, '0')}`),
      '2000-01',
    ]);
  });
});

describe('open disputes', () => {
  beforeEach(seed);

  it('lists the open ones with their respond_by and buyer, not the lost ones', async () => {
    await core().sequelize.query("UPDATE users SET global_name = 'Fan Club' WHERE provider_id = $1", {
      bind: [buyerProviderId],
    });
    const disputes = await openDisputes(core());

    expect(disputes).toEqual([
      expect.objectContaining({
        status: 'open',
        orderId: expect.stringMatching(/^order_/),
        subscriptionId: null,
        providerId: buyerProviderId,
        buyerName: 'Fan Club',
        amount: 199,
        respondBy: '2026-03-25T18:29:59.000Z',
        openedAt: '2026-03-20T05:00:00.000Z',
      }),
    ]);
  });
});

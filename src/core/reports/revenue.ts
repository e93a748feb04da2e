import type { Core } from '..';
import { AppError } from '../errors';
import type { Category } from '../premium/types';
import { calendarDay, checkRange, defaultFrom, today } from './dates';
import { CATALOG_NAMES_SQL, PERIODS_SQL, REVENUE_SQL } from './sql';
import { inr, select } from './select';
import type { MoneyFigures, Purchase, RevenuePeriod, RevenueQuery, RevenueReport } from './types';

interface RevenueRow {
  period: string;
  kind: 'oneOff' | 'subscription';
  category: Category;
  tier: string;
  plan: string;
  purchase: Purchase;
  gross: string;
  refunded: string;
  disputed: string;
  payments: string;
}

/** Sums in paise, turned into INR once at the end so that totals add up to the paisa. */
class Paise {
  gross = 0;
  refunded = 0;
  disputed = 0;
  payments = 0;

  add(row: Pick<RevenueRow, 'gross' | 'refunded' | 'disputed' | 'payments'>): void {
    this.gross += Number(row.gross);
    this.refunded += Number(row.refunded);
    this.disputed += Number(row.disputed);
    this.payments += Number(row.payments);
  }

  figures(): MoneyFigures {
    return {
      gross: inr(this.gross),
      refunded: inr(this.refunded),
      disputed: inr(this.disputed),
      net: inr(this.gross - this.refunded - this.disputed),
      payments: this.payments,
    };
  }
}

/** Sums by a key (a tier, a plan), made as rows name them. */
class KeyedSums {
  private readonly sums = new Map<string, Paise>();

  add(key: string, row: RevenueRow): void {
    let sums = this.sums.get(key);
    if (!sums) this.sums.set(key, (sums = new Paise()));
    sums.add(row);
  }

  /** In key order, so that every period lists its tiers and plans alike. */
  figures(): Record<string, MoneyFigures> {
    return Object.fromEntries(
      [...this.sums]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, sums]) => [key, sums.figures()]),
    );
  }
}

class PeriodSums {
  all = new Paise();
  oneOff = new Paise();
  subscription = new Paise();
  USER = new Paise();
  SERVER = new Paise();
  tiers = new KeyedSums();
  plans = new KeyedSums();
  purchases: Record<Purchase, Paise> = {
    single: new Paise(),
    bundle: new Paise(),
    upgrade: new Paise(),
    gift: new Paise(),
  };

  add(row: RevenueRow): void {
    for (const sums of [this.all, this[row.kind], this[row.category], this.purchases[row.purchase]])
      sums.add(row);
    this.tiers.add(row.tier, row);
    this.plans.add(row.plan, row);
  }

  figures(): Omit<RevenuePeriod, 'period'> {
    return {
      ...this.all.figures(),
      byKind: { oneOff: this.oneOff.figures(), subscription: this.subscription.figures() },
      byCategory: { USER: this.USER.figures(), SERVER: this.SERVER.figures() },
      byTier: this.tiers.figures(),
      byPlan: this.plans.figures(),
      byPurchase: {
        single: this.purchases.single.figures(),
        bundle: this.purchases.bundle.figures(),
        upgrade: this.purchases.upgrade.figures(),
        gift: this.purchases.gift.figures(),
      },
    };
  }
}

/**
 * Gross, refunded, disputed and net INR by day or month in REPORT_TIMEZONE, split one-off / subscription,
 * USER / SERVER, by tier, by plan and by what was bought (the query: REVENUE_SQL).
 */
export async function revenueReport(
  core: Pick<Core, 'sequelize' | 'config'>,
  query: RevenueQuery = {},
): Promise<RevenueReport> {
  const timeZone = core.config.reportTimeZone;
  const by = query.by ?? 'day';
  if (by !== 'day' && by !== 'month') {
    throw AppError.validation('INVALID_GROUPING', `by must be day or month, not "${String(by)}"`);
  }
  const to = query.to === undefined ? today(timeZone) : calendarDay(query.to, 'to');
  const from = query.from === undefined ? defaultFrom(to, by) : calendarDay(query.from, 'from');
  checkRange(from, to);

  const [periods, rows, catalogNames] = await Promise.all([
    select<{ period: string }>(core.sequelize, PERIODS_SQL, [from, to, by]),
    select<RevenueRow>(core.sequelize, REVENUE_SQL, [from, to, timeZone, by]),
    select<{ kind: 'tier' | 'plan'; code: string; name: string }>(core.sequelize, CATALOG_NAMES_SQL, []),
  ]);
  const sums = new Map(periods.map(({ period }) => [period, new PeriodSums()]));
  const totals = new PeriodSums();
  for (const row of rows) {
    sums.get(row.period)!.add(row);
    totals.add(row);
  }
  const total = totals.figures();
  return {
    currency: 'INR',
    timeZone,
    by,
    from,
    to,
    periods: [...sums].map(([period, periodSums]) => ({ period, ...periodSums.figures() })),
    totals: total,
    names: namesOf(catalogNames, total),
  };
}

/** The catalog's names of the codes the report's totals name (a plan sold and since deleted has none). */
function namesOf(
  catalog: { kind: 'tier' | 'plan'; code: string; name: string }[],
  totals: Omit<RevenuePeriod, 'period'>,
): RevenueReport['names'] {
  const named = (kind: 'tier' | 'plan', codes: Record<string, unknown>) =>
    Object.fromEntries(
      catalog
        .filter((entry) => entry.kind === kind && entry.code in codes)
        .map(({ code, name }) => [code, name]),
    );
  return { tiers: named('tier', totals.byTier), plans: named('plan', totals.byPlan) };
}

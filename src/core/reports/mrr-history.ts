import type { Core } from '..';
import { today } from './dates';
import { inr, select } from './select';
import { MRR_BY_MONTH_SQL } from './sql';

export interface MonthlyRecurringRevenue {
  /** `YYYY-MM` in REPORT_TIMEZONE. */
  period: string;
  /** MRR at the month's end (for the current month: now), in INR. */
  mrr: number;
}

/** MRR month by month, the last 12 months to the current one (the console's chart). */
export async function mrrByMonth(
  core: Pick<Core, 'sequelize' | 'config'>,
): Promise<MonthlyRecurringRevenue[]> {
  const month = `${today(core.config.reportTimeZone).slice(0, 7)}-01`;
  const rows = await select<{ period: string; paise: string }>(core.sequelize, MRR_BY_MONTH_SQL, [
    core.config.reportTimeZone,
    month,
  ]);
  return rows.map(({ period, paise }) => ({ period, mrr: inr(paise) }));
}

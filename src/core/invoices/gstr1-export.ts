import type { Sequelize } from 'sequelize';
import { csvLine } from '../csv';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { gstr1Tables, type Gstr1Chargeback, type Gstr1Document } from './gstr1';
import { GSTR1_HEADERS, type Gstr1File } from './gstr1-headers';
import { GSTR1_CHARGEBACKS, GSTR1_DOCUMENTS } from './gstr1-sql';
import { indiaMonth } from './numbering';

/** A return period: a month `2026-04`, or a calendar quarter `2026-Q2` (April to June). */
export interface ReturnPeriod {
  /** `2026-04` or `2026-Q2`, as the files' names carry it. */
  label: string;
  from: Date;
  /** Excluded. */
  to: Date;
}

/** The period `--month` or `--quarter` names, in India time; 400 INVALID_PERIOD otherwise. */
export function returnPeriod(period: { month?: string; quarter?: string }): ReturnPeriod {
  if ((period.month === undefined) === (period.quarter === undefined)) {
    throw AppError.validation('INVALID_PERIOD', 'give one period: a month (2026-04) or a quarter (2026-Q2)');
  }
  if (period.month !== undefined) {
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period.month)) {
      throw AppError.validation('INVALID_PERIOD', `expected a month like 2026-04, got "${period.month}"`);
    }
    return { label: period.month, ...indiaMonth(period.month) };
  }
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period.quarter!);
  if (!quarter) {
    throw AppError.validation('INVALID_PERIOD', `expected a quarter like 2026-Q2, got "${period.quarter}"`);
  }
  const firstMonth = (Number(quarter[2]) - 1) * 3 + 1;
  const month = (offset: number) => `${quarter[1]}-${String(firstMonth + offset).padStart(2, '0')}`;
  return { label: period.quarter!, from: indiaMonth(month(0)).from, to: indiaMonth(month(2)).to };
}

/**
 * The period's GSTR-1 files as the offline tool imports them, each CSV with its header (`b2cs.csv` …),
 * with `gstr3b.csv` to check the summary return and `chargebacks.csv` for the accountant.
 */
export async function gstr1Files(
  sequelize: Sequelize,
  period: ReturnPeriod,
): Promise<{ name: string; csv: string; rows: number }[]> {
  const [documents, chargebacks] = await Promise.all([
    selectRows<Gstr1Document>(sequelize, GSTR1_DOCUMENTS, [period.from, period.to]),
    selectRows<Gstr1Chargeback>(sequelize, GSTR1_CHARGEBACKS, [period.from, period.to]),
  ]);
  const tables = gstr1Tables(documents, chargebacks);
  return (Object.keys(GSTR1_HEADERS) as Gstr1File[]).map((file) => ({
    name: `${file}.csv`,
    csv: [GSTR1_HEADERS[file], ...tables[file]].map(csvLine).join(''),
    rows: tables[file].length,
  }));
}

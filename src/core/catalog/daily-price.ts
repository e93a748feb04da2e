import type { Sequelize, Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { TIER_DAILY_PRICE } from './sql';

export interface TierPrice {
  rank: number;
  /** Paise a day, unrounded; null when the tier has no plan on sale. */
  dailyPaise: number | null;
}

/**
 * A tier's rank and what a day of it costs against a plan of `days` days (TIER_DAILY_PRICE), for an
 * upgrade's price; null for a tier the catalog does not hold.
 */
export async function tierDailyPrice(
  runner: Sequelize | Transaction,
  tier: string,
  days: number,
): Promise<TierPrice | null> {
  const [row] = await selectRows<TierPrice>(runner, TIER_DAILY_PRICE, [tier, days]);
  return row
    ? { rank: Number(row.rank), dailyPaise: row.dailyPaise === null ? null : Number(row.dailyPaise) }
    : null;
}

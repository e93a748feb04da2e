import type { Sequelize } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { selectRows } from '../db/database';

/** GST registration is required above ₹20 lakh of aggregate turnover a year (services, most states). */
export const REGISTRATION_THRESHOLD_PAISE = 20_00_000_00;
/** The console warns from ₹15 lakh, while there is time to register. */
export const WARN_FROM_PAISE = 15_00_000_00;

/** What the documents of [$1, now) took, less what their credit notes gave back, in paise. */
const TURNOVER_SINCE = `
  SELECT (SELECT COALESCE(sum(total_paise), 0) FROM invoices WHERE issued_at >= $1::timestamptz)
       - (SELECT COALESCE(sum(total_paise), 0) FROM credit_notes WHERE issued_at >= $1::timestamptz)
       AS "turnoverPaise"`;

export interface Turnover {
  /** The last 12 months' sales less refunds, prices as paid, in paise. */
  turnoverPaise: number;
  thresholdPaise: number;
  /** Whether the console should say so: no GSTIN, and the turnover past ₹15 lakh. */
  warn: boolean;
}

/**
 * The seller's turnover of the last 12 months against the registration threshold, for a seller without a
 * GSTIN (docs/invoices.md): the receipts' totals less their credit notes, a conservative reading (the
 * prices as paid, the GST a registered seller would owe included).
 */
export async function turnoverOfLastYear(
  sequelize: Sequelize,
  settings: Pick<InvoiceSettings, 'sellerGstin'>,
  now = new Date(),
): Promise<Turnover> {
  const since = new Date(now);
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  const [row] = await selectRows<{ turnoverPaise: string }>(sequelize, TURNOVER_SINCE, [since]);
  const turnoverPaise = Number(row!.turnoverPaise);
  return {
    turnoverPaise,
    thresholdPaise: REGISTRATION_THRESHOLD_PAISE,
    warn: settings.sellerGstin === null && turnoverPaise >= WARN_FROM_PAISE,
  };
}

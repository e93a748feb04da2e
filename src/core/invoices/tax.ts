/**
 * The tax in a price that includes it, in whole paise, the same way for every document (docs/invoices.md):
 * taxable = round(total × 100 / (100 + rate)), tax = total − taxable; within the seller's state CGST =
 * floor(tax / 2) and SGST the rest, otherwise all of it IGST. Every document's lines come from its own
 * total, so they add up to it to the paisa: ₹199 at 18 % is 168.64 + 15.18 + 15.18, a ₹100 refund
 * 84.75 + 7.62 + 7.63.
 */

export interface TaxLines {
  /** All in paise. */
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  total: number;
}

/** A rate with at most two decimals, as hundredths of a percent, so that the division stays exact. */
const hundredths = (ratePercent: number) => Math.round(ratePercent * 100);

/** Half away from zero, in integers: `numerator / denominator` rounded, for positive numbers. */
const roundedQuotient = (numerator: number, denominator: number) =>
  Math.floor((2 * numerator + denominator) / (2 * denominator));

export function splitTax(totalPaise: number, ratePercent: number, intraState: boolean): TaxLines {
  const rate = hundredths(ratePercent);
  const taxable = roundedQuotient(totalPaise * 10_000, 10_000 + rate);
  const tax = totalPaise - taxable;
  if (!intraState) return { taxable, cgst: 0, sgst: 0, igst: tax, total: totalPaise };
  const cgst = Math.floor(tax / 2);
  return { taxable, cgst, sgst: tax - cgst, igst: 0, total: totalPaise };
}

/** A receipt's lines: no tax. */
export function untaxed(totalPaise: number): TaxLines {
  return { taxable: totalPaise, cgst: 0, sgst: 0, igst: 0, total: totalPaise };
}

/** Paise as INR with two decimals, as the documents and their JSON show amounts: 16864 is `168.64`. */
export function inr(paise: number): string {
  return (paise / 100).toFixed(2);
}

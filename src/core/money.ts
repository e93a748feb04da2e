import { AppError } from './errors';

const RUPEES = /^\d{1,9}(\.\d{1,2})?$/;

/**
 * An amount in rupees (`199`, `99.50`) as paise: the CLI's `--amount` and the console's refund both read
 * it here. Anything but whole paise of at least ₹1 is refused, never rounded: 0.995 is not ₹1.00. A
 * number is read as JavaScript writes it, the shortest form that reads back the same (0.995 stays
 * 0.995), so its decimals are the ones that were sent.
 */
export function paiseOfRupees(rupees: string | number): number {
  const text = String(rupees);
  if (!RUPEES.test(text) || Number(text) < 1)
    throw AppError.validation('INVALID_AMOUNT', 'expected an amount in INR of at least 1, like 199 or 99.50');
  return Math.round(Number(text) * 100);
}

const INDIAN_RUPEES = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Paise as an operator reads an amount in INR, grouped the Indian way: 29800 is `₹298.00`, 199900
 * `₹1,999.00`, 1000000000 `₹1,00,00,000.00`, as the console and `--amount` speak.
 */
export function rupeesOfPaise(paise: number): string {
  return `₹${INDIAN_RUPEES.format(paise / 100)}`;
}

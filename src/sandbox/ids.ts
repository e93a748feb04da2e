import { randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  return Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
}

/** Razorpay's id format: a prefix and 14 alphanumerics (`order_…`, `pay_…`, `rfnd_…`, `acc_…`). */
export function razorpayId(prefix: string): string {
  return `${prefix}_${randomAlphanumeric(14)}`;
}

export function randomDigits(length: number): string {
  return Array.from({ length }, () => randomInt(10)).join('');
}

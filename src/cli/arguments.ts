import { InvalidArgumentError } from 'commander';
import { assertFeatureKey, parseFeature } from '../core/catalog/features';
import type { FeatureValue } from '../core/catalog/types';
import { isAppError } from '../core/errors';
import { typedInstant } from '../core/local-time';
import { CUSTOM_MONTHS } from '../core/plans';
import { paiseOfRupees } from '../core/money';
import { PROVIDER_ID_PATTERN } from '../core/users/provider-id';

/**
 * Parsers for commander arguments and options: a bad value is a usage error (exit 2), not a failure.
 * Commander calls them as `(value, previous)`, so none takes a second parameter of its own.
 */

const SNOWFLAKE = new RegExp(PROVIDER_ID_PATTERN);
const ORDER_ID = /^order_[A-Za-z0-9]{1,40}$/;
const DURATION = /^(\d+)([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/** A Discord id (user or guild): digits only. */
export function snowflake(value: string): string {
  if (!SNOWFLAKE.test(value)) throw new InvalidArgumentError('expected a Discord id (digits only).');
  return value;
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError('expected a whole number ≥ 1.');
  }
  return number;
}

/** A whole number ≥ 0: a tier's rank, a plan's trial days. */
export function wholeNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number)) {
    throw new InvalidArgumentError('expected a whole number ≥ 0.');
  }
  return number;
}

/**
 * `--feature key=value`, repeated: the value a number, `true`/`false`, else a text (the catalog's
 * `parseFeature`). A key given twice keeps its last value.
 */
export function features(
  value: string,
  previous: Record<string, FeatureValue> = {},
): Record<string, FeatureValue> {
  try {
    const [key, parsed] = parseFeature(value);
    return { ...previous, [key]: parsed };
  } catch (error) {
    if (isAppError(error)) throw new InvalidArgumentError(`${error.message}.`);
    throw error;
  }
}

/** `--remove key`: a feature's key, as `--feature` writes it. */
export function featureKey(value: string): string {
  try {
    assertFeatureKey(value);
    return value;
  } catch (error) {
    if (isAppError(error)) throw new InvalidArgumentError(`${error.message}.`);
    throw error;
  }
}

export function months(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < CUSTOM_MONTHS.min || number > CUSTOM_MONTHS.max) {
    throw new InvalidArgumentError(
      `expected a whole number from ${CUSTOM_MONTHS.min} to ${CUSTOM_MONTHS.max}.`,
    );
  }
  return number;
}

/** A Razorpay order id, as the buyer's receipt and Razorpay's dashboard show it. */
export function orderId(value: string): string {
  if (!ORDER_ID.test(value)) throw new InvalidArgumentError('expected a Razorpay order id (order_…).');
  return value;
}

/** The payment to refund: an order's (order_…), or a payment id (pay_…), such as a subscription charge's. */
export function orderOrPayment(value: string): { orderId: string } | { paymentId: string } {
  if (ORDER_ID.test(value)) return { orderId: value };
  if (/^pay_[A-Za-z0-9]{1,40}$/.test(value)) return { paymentId: value };
  throw new InvalidArgumentError('expected a Razorpay order id (order_…) or payment id (pay_…).');
}

/** An amount in rupees (`199`, `99.50`), as paise. */
export function rupees(value: string): number {
  try {
    return paiseOfRupees(value);
  } catch (error) {
    if (isAppError(error)) throw new InvalidArgumentError(`${error.message}.`);
    throw error;
  }
}

/** A calendar day, `YYYY-MM-DD`. */
export function day(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError('expected a day like 2026-01-31.');
  return value;
}

/** A calendar month, `YYYY-MM`. */
export function month(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value))
    throw new InvalidArgumentError('expected a month like 2026-01.');
  return value;
}

/** An invoice's, receipt's or credit note's number: `INV/2627/000001`. */
export function documentNumberArgument(value: string): string {
  if (!/^[A-Za-z0-9-]{1,4}\/\d{4}\/\d{6}$/.test(value))
    throw new InvalidArgumentError('expected a document number like INV/2627/000001.');
  return value;
}

/** A Razorpay subscription id (sub_…). */
export function subscriptionId(value: string): string {
  if (!/^sub_[A-Za-z0-9]{1,40}$/.test(value)) {
    throw new InvalidArgumentError('expected a Razorpay subscription id (sub_…).');
  }
  return value;
}

/** `--since`: a look-back (`30m`, `72h`, `7d`, `2w`) or an ISO 8601 instant (`2024-05-01T00:00:00Z`). */
export function since(value: string): Date {
  const duration = DURATION.exec(value);
  if (duration) {
    return new Date(Date.now() - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS]);
  }
  const instant = /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
  if (!instant || Number.isNaN(instant.getTime())) {
    throw new InvalidArgumentError('expected a look-back like 30m, 72h, 7d, 2w, or an ISO 8601 time.');
  }
  return instant;
}

/** A reason or an actor: blank text tells the next operator nothing. */
export function text(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty.');
  return value.trim();
}

/** For a variadic argument, commander folds each value into the previous ones through the parser. */
export function many<T>(parse: (value: string) => T): (value: string, previous?: T[]) => T[] {
  return (value, previous = []) => [...previous, parse(value)];
}

/** `--expires-in`: a lifetime from now (`30m`, `72h`, `90d`, `2w`), as the instant it ends. */
export function expiresIn(value: string): Date {
  const duration = DURATION.exec(value);
  if (!duration || Number(duration[1]) < 1)
    throw new InvalidArgumentError('expected a lifetime like 72h, 90d or 2w.');
  return new Date(Date.now() + Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS]);
}

/** `premium codes create --expires-in`: a lifetime as `expiresIn` takes it, or `never` (commander turns null into ''). */
export function codeLifetime(value: string): Date | 'never' {
  return value === 'never' ? value : expiresIn(value);
}

/**
 * A time as a seller types it (a day, a clock time, or an instant with its offset), kept as typed: the
 * command reads it in REPORT_TIMEZONE once it has the configuration (`typedInstant`).
 */
export function typedTime(value: string): string {
  if (!typedInstant(value, 'UTC', 'start')) {
    throw new InvalidArgumentError(
      'expected a day or a time, like 2026-11-01, 2026-11-01T18:30 or 2026-11-01T18:30:00+05:30.',
    );
  }
  return value;
}

/** A comma-separated list of names, like `Monthly,Yearly`. */
export function list(value: string): string[] {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError('expected one name or more, separated by commas.');
  return names;
}

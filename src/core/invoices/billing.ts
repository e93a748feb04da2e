import { assertBuyerText } from '../buyer-text';
import { AppError } from '../errors';
import { countryName, gstinProblem, isGstState } from '../gst';

/** Who the buyer is for GST, as create-order and create-subscription take it (all optional). */
export interface BillingInput {
  /** The two-digit GST state code, `29` for Karnataka. */
  stateCode?: string | null;
  /** A registered buyer's GSTIN; its first two digits are the state. */
  gstin?: string | null;
  /** The name the invoice is made out to; the buyer's Discord name when absent. */
  name?: string | null;
  /** The buyer's address, one line; required with a GSTIN. */
  address?: string | null;
  /** The address's six-digit PIN code. */
  pincode?: string | null;
  /** A buyer abroad: ISO 3166 alpha-2, not `IN`. */
  country?: string | null;
}

/** What an order or a subscription keeps of it. */
export interface Billing {
  stateCode: string | null;
  gstin: string | null;
  name: string | null;
  address: string | null;
  pincode: string | null;
  country: string | null;
}

export const NO_BILLING: Billing = {
  stateCode: null,
  gstin: null,
  name: null,
  address: null,
  pincode: null,
  country: null,
};

/** The billing as the orders' and subscriptions' columns (models' attribute names). */
export function billingColumns(billing: Billing) {
  return {
    billingStateCode: billing.stateCode,
    billingGstin: billing.gstin,
    billingName: billing.name,
    billingAddress: billing.address,
    billingPincode: billing.pincode,
    billingCountry: billing.country,
  };
}

export type BillingColumns = ReturnType<typeof billingColumns>;

/** The billing an order or subscription row keeps. */
export function billingOfColumns(row: BillingColumns): Billing {
  return {
    stateCode: row.billingStateCode,
    gstin: row.billingGstin,
    name: row.billingName,
    address: row.billingAddress ?? null,
    pincode: row.billingPincode ?? null,
    country: row.billingCountry ?? null,
  };
}

export const sameBilling = (a: Billing, b: Billing) =>
  (Object.keys(NO_BILLING) as (keyof Billing)[]).every((key) => a[key] === b[key]);

/** A free-text field trimmed, empty as absent, at most `max` characters (400 INVALID_BILLING). */
function text(value: string | null | undefined, field: string, max: number): string | null {
  const trimmed = value?.trim() || null;
  if (trimmed !== null && trimmed.length > max) {
    throw AppError.validation('INVALID_BILLING', `billing.${field} is longer than ${max} characters`);
  }
  return trimmed;
}

function parseCountry(input: string | null | undefined): string | null {
  const country = input?.trim().toUpperCase() || null;
  if (country === null) return null;
  if (country === 'IN') {
    throw AppError.validation(
      'INVALID_COUNTRY',
      'billing.country is for buyers outside India; a buyer in India gives billing.stateCode',
    );
  }
  if (countryName(country) === null) {
    throw AppError.validation(
      'INVALID_COUNTRY',
      `"${country}" is not a country code (ISO 3166 alpha-2, like US or DE)`,
    );
  }
  return country;
}

/**
 * Checks the buyer's billing: a line break or control character in any field is 400 INVALID_TEXT, an
 * unknown state 400 INVALID_STATE, a GSTIN of the wrong shape, check character or state (or of another
 * state than `stateCode`), or the seller's own GSTIN, 400 INVALID_GSTIN, a PIN not of six digits
 * INVALID_PINCODE, a country that is none (or India) INVALID_COUNTRY, a country with a state or GSTIN
 * INVALID_BILLING. The GSTIN names the state when `stateCode` is absent. When the seller has a GSTIN
 * (tax invoices) the place of supply must be known: no state, GSTIN nor country is 400 STATE_REQUIRED
 * (online services to unregistered buyers are invoiced to their state, CBIC Circular 242/36/2024-GST),
 * and a GSTIN needs the address (Rule 46: a registered recipient's name, address and GSTIN),
 * ADDRESS_REQUIRED.
 */
export function parseBilling(input: BillingInput | null | undefined, sellerGstin: string | null): Billing {
  const taxInvoices = sellerGstin !== null;
  for (const field of ['name', 'gstin', 'stateCode', 'address', 'pincode', 'country'] as const)
    assertBuyerText(`billing.${field}`, input?.[field]);
  const stateCode = input?.stateCode?.trim() || null;
  const gstin = input?.gstin?.trim().toUpperCase() || null;
  const country = parseCountry(input?.country);
  const name = text(input?.name, 'name', 200);
  const address = text(input?.address, 'address', 300);
  const pincode = input?.pincode?.trim() || null;
  if (stateCode !== null && !isGstState(stateCode)) {
    throw AppError.validation(
      'INVALID_STATE',
      `"${stateCode}" is not a GST state code (two digits, like 29 for Karnataka)`,
    );
  }
  if (gstin !== null) {
    const problem = gstinProblem(gstin);
    if (problem) throw AppError.validation('INVALID_GSTIN', problem);
    if (gstin === sellerGstin)
      throw AppError.validation(
        'INVALID_GSTIN',
        `GSTIN ${gstin} is the seller's own: give the buyer's GSTIN`,
      );
    if (stateCode !== null && gstin.slice(0, 2) !== stateCode) {
      throw AppError.validation(
        'INVALID_GSTIN',
        `GSTIN ${gstin} is registered in state ${gstin.slice(0, 2)}, not ${stateCode}`,
      );
    }
  }
  if (country !== null && (stateCode !== null || gstin !== null || pincode !== null)) {
    throw AppError.validation(
      'INVALID_BILLING',
      'billing.country (a buyer abroad) goes without an Indian state, GSTIN or PIN code',
    );
  }
  if (pincode !== null && !/^[1-9][0-9]{5}$/.test(pincode)) {
    throw AppError.validation('INVALID_PINCODE', `"${pincode}" is not a PIN code (six digits, like 560001)`);
  }
  if (taxInvoices && stateCode === null && gstin === null && country === null) {
    throw AppError.validation(
      'STATE_REQUIRED',
      'billing.stateCode is required: a tax invoice names the buyer’s state as its place of supply (or give billing.gstin, or billing.country for a buyer outside India)',
    );
  }
  if (taxInvoices && gstin !== null && address === null) {
    throw AppError.validation(
      'ADDRESS_REQUIRED',
      'billing.address is required with billing.gstin: an invoice to a registered buyer names their address',
    );
  }
  return { stateCode: stateCode ?? gstin?.slice(0, 2) ?? null, gstin, name, address, pincode, country };
}

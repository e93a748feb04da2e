import { assertBuyerText } from '../buyer-text';
import { AppError } from '../errors';
import { gstinProblem, isGstState } from '../gst';

/** Who the buyer is for GST, as create-order and create-subscription take it (all optional). */
export interface BillingInput {
  /** The two-digit GST state code, `29` for Karnataka. */
  stateCode?: string | null;
  /** A registered buyer's GSTIN; its first two digits are the state. */
  gstin?: string | null;
  /** The name the invoice is made out to; the buyer's Discord name when absent. */
  name?: string | null;
}

/** What an order or a subscription keeps of it. */
export interface Billing {
  stateCode: string | null;
  gstin: string | null;
  name: string | null;
}

const NO_BILLING: Billing = { stateCode: null, gstin: null, name: null };

/**
 * Checks the buyer's billing: a line break or control character in any field is 400 INVALID_TEXT, an
 * unknown state 400 INVALID_STATE, a GSTIN of the wrong shape, check character or state (or of another
 * state than `stateCode`), or the seller's own GSTIN, 400 INVALID_GSTIN. The GSTIN names the state when
 * `stateCode` is absent.
 */
export function parseBilling(input: BillingInput | null | undefined, sellerGstin: string | null): Billing {
  if (!input) return NO_BILLING;
  for (const field of ['name', 'gstin', 'stateCode'] as const)
    assertBuyerText(`billing.${field}`, input[field]);
  const stateCode = input.stateCode?.trim() || null;
  const gstin = input.gstin?.trim().toUpperCase() || null;
  const name = input.name?.trim() || null;
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
  return { stateCode: stateCode ?? gstin?.slice(0, 2) ?? null, gstin, name };
}

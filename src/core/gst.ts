/**
 * What GST says of a place and a registration, for the settings (SELLER_GSTIN), the buyer's billing on
 * create-order and create-subscription, and the invoices: the two-digit state codes of GST and the
 * GSTIN's shape and check character. A loose file, so that the configuration (below every area) and the
 * orders, subscriptions and invoices above it read the same rules.
 */

/**
 * The GST state codes of the states and union territories a buyer can be in, with their names. 25 (Daman
 * and Diu) and 28 (Andhra Pradesh before 2014) are no longer issued: their registrations moved to 26 and
 * 37. 97 is "Other Territory" (offshore areas).
 */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

/**
 * Union territories without a legislature: their half of an intra-state tax is UTGST, not SGST (the
 * same amount, another name on the document).
 */
const UTGST_TERRITORIES = new Set(['04', '26', '31', '35', '38', '97']);

export function isGstState(code: string): boolean {
  return Object.hasOwn(GST_STATES, code);
}

/**
 * The states in code order, 01 to 97. Not `Object.entries(GST_STATES)`: JavaScript lists the keys that
 * look like array indexes (10 to 97) before the others, which put 01 to 09 (Delhi, Punjab…) last.
 */
export function gstStatesInOrder(): { code: string; name: string }[] {
  return Object.keys(GST_STATES)
    .sort()
    .map((code) => ({ code, name: GST_STATES[code]! }));
}

/** The place of supply of an export of services: GSTR-1's "96-Other Countries". */
export const EXPORT_PLACE = '96';

/** `29 Karnataka`, `96 Other Countries`, or the code alone when it names no place. */
export function stateLabel(code: string): string {
  if (code === EXPORT_PLACE) return `${code} Other Countries`;
  return GST_STATES[code] ? `${code} ${GST_STATES[code]}` : code;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** Two-letter codes ICU names that are no country (unknown, the EU, the euro area, the UN, Oceania). */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO']);

/** A country's English name from its ISO 3166 alpha-2 code, or null when the code names none. */
export function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return null;
  try {
    return REGIONS.of(code) ?? null;
  } catch {
    return null;
  }
}

/** The name of the second half of an intra-state tax in the seller's state: SGST or UTGST. */
export function stateTaxName(sellerStateCode: string | null): 'SGST' | 'UTGST' {
  return sellerStateCode !== null && UTGST_TERRITORIES.has(sellerStateCode) ? 'UTGST' : 'SGST';
}

const CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A regular taxpayer's GSTIN: the state code, the PAN (five letters, four digits, a letter), the entity's
 * number of registrations in the state (1-9, A-Z), a default `Z` (or another character) and the check.
 */
const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][0-9A-Z][0-9A-Z]$/;

/**
 * The check character of the first fourteen characters of a GSTIN: base 36, each character's value
 * multiplied by 1 and 2 alternately, the quotient and remainder of each product by 36 summed, and the
 * character that brings the sum to a multiple of 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = CHARACTERS.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return CHARACTERS[(36 - (sum % 36)) % 36]!;
}

/** Why `gstin` is not a valid GSTIN (shape, state code, check character), or null when it is. */
export function gstinProblem(gstin: string): string | null {
  if (!GSTIN_SHAPE.test(gstin)) {
    return `"${gstin}" is not a GSTIN (15 characters: state code, PAN, entity, Z, check, in capitals)`;
  }
  const state = gstin.slice(0, 2);
  if (!isGstState(state)) return `"${gstin}" starts with ${state}, which is no GST state code`;
  const check = gstinCheckCharacter(gstin.slice(0, 14));
  if (gstin[14] !== check) return `"${gstin}" has a wrong check character (the last one would be ${check})`;
  return null;
}

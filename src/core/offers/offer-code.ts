import { AppError } from '../errors';

const OFFER_CODE = /^[A-Z0-9]{4,32}$/;

/** An offer code as stored: upper case, what a buyer typed in any case with spaces around trimmed. */
export function canonicalOfferCode(text: string): string {
  const code = text.trim().toUpperCase();
  if (!OFFER_CODE.test(code)) {
    throw AppError.validation('OFFER_INVALID', `offer code ${text.trim().slice(0, 40)} is not valid`);
  }
  return code;
}

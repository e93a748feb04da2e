import { createHash, randomInt } from 'node:crypto';

/**
 * Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. 16 characters
 * carry 80 random bits.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 16;
const GROUP = 4;
const WELL_FORMED = new RegExp(`^[${ALPHABET}]{${LENGTH}}$`);

/** A new code, grouped for reading: `7KQ4-M2ZD-X9TB-HC3W`. */
export function generateCode(): string {
  const characters = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return characters.join('').replace(new RegExp(`(.{${GROUP}})(?!$)`, 'g'), '$1-');
}

/**
 * The code's canonical form (upper case, without spaces or dashes, O read as 0 and I or L as 1, as
 * Crockford decodes them), or null when it cannot be a code at all.
 */
export function canonicalCode(text: string): string | null {
  const canonical = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return WELL_FORMED.test(canonical) ? canonical : null;
}

/** What is stored instead of the code: the SHA-256 (hex) of its canonical form. */
export function codeSha256(canonical: string): string {
  return createHash('sha256').update(canonical).digest('hex');
}

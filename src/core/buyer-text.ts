import { AppError } from './errors';

/**
 * Control and format characters (Cc, Cf) and the Unicode line and paragraph separators: a newline or a
 * bidi override (U+202A–202E, U+2066–2069) in a billing name prints as forged lines or reordered text
 * under "Billed to". The joiners U+200C and U+200D are Cf too, but Indic names and emoji need them.
 */
const NOT_TEXT = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Refuses buyer text holding a line break or an invisible control character with 400 INVALID_TEXT,
 * naming the field (`billing.name`): every route that takes text from a buyer checks it here.
 */
export function assertBuyerText(field: string, value: string | null | undefined): void {
  if (value === null || value === undefined) return;
  const found = NOT_TEXT.exec(value);
  if (!found) return;
  const codePoint = `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  throw AppError.validation(
    'INVALID_TEXT',
    `${field} holds ${codePoint}: line breaks and invisible control characters (bidi overrides too) are refused`,
    [{ field, message: `holds ${codePoint}` }],
  );
}

import fs from 'node:fs';

/** A PEM CA bundle's text, read once, when the configuration loads. */
export function readCaBundle(file: string): string {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${file} holds no PEM certificate`);
  return pem;
}

/** OPERATOR_PROVIDER_IDS: Discord user ids (snowflakes), comma-separated. */
export function parseOperatorIds(value: string): string[] {
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !/^\d{17,20}$/.test(id));
  if (bad !== undefined) throw new Error(`"${bad}" is not a Discord user id (17 to 20 digits)`);
  return [...new Set(ids)];
}

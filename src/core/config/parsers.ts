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

const SNOWFLAKE = /^\d{17,20}$/;

/** A Discord id (a snowflake) of what `what` names. */
export function parseSnowflake(what: string): (value: string) => string {
  return (value) => {
    const id = value.trim();
    if (!SNOWFLAKE.test(id)) throw new Error(`"${value}" is not ${what} (17 to 20 digits)`);
    return id;
  };
}

/** TIER_ROLES: `<tier code>=<role id>` pairs, comma-separated (`premium=123…,pro=456…`). */
export function parseTierRoles(value: string): Record<string, string> {
  const roles: Record<string, string> = {};
  for (const pair of value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const match = /^([a-z0-9][a-z0-9-]{0,31})=(\S+)$/.exec(pair);
    if (!match) throw new Error(`"${pair}" is not <tier code>=<role id>, like premium=123456789012345678`);
    const [, tier, role] = match as unknown as [string, string, string];
    if (!SNOWFLAKE.test(role))
      throw new Error(`"${role}" (of ${tier}) is not a Discord role id (17 to 20 digits)`);
    if (tier in roles) throw new Error(`tier ${tier} is named twice`);
    if (Object.values(roles).includes(role)) throw new Error(`role ${role} is given to two tiers`);
    roles[tier] = role;
  }
  if (Object.keys(roles).length === 0) throw new Error('names no tier: premium=<role id>,pro=<role id>');
  return roles;
}

import type { Sequelize } from 'sequelize';
import { selectRows } from '../core/db/database';
import { GUILD_NAME_SEEN_BY } from './sql';

/** `2026-12-24 21:21 UTC`: the one way the demo page and the notices write a time. */
export function friendlyTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Who holds a premium, as its user knows it: "your account", or the server's name from their last
 * sign-in ("server <id>" only for a server they no longer see).
 */
export async function holderName(
  sequelize: Sequelize,
  providerId: string,
  guildId: string | null,
): Promise<string> {
  if (guildId === null) return 'your account';
  const [guild] = await selectRows<{ name: string }>(sequelize, GUILD_NAME_SEEN_BY, [providerId, guildId]);
  return guild ? guild.name : `server ${guildId}`;
}

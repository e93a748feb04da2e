import type { Sequelize } from 'sequelize';
import { selectRows } from '../core/db/database';
import { GUILD_NAME_SEEN_BY } from './sql';

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

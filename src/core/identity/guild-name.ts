import { selectRows, type Runner } from '../db/database';
import { GUILD_NAME_SEEN_BY_USER } from './sql';

/**
 * The name of guild `guildId` as user `userId`'s last sign-in saw it (Discord's /users/@me/guilds), or
 * null: no guild, or one they no longer manage. What a seller reads beside the id.
 */
export async function guildNameSeenBy(
  runner: Runner,
  userId: number,
  guildId: string | null,
): Promise<string | null> {
  if (guildId === null) return null;
  const [guild] = await selectRows<{ name: string }>(runner, GUILD_NAME_SEEN_BY_USER, [userId, guildId]);
  return guild?.name ?? null;
}

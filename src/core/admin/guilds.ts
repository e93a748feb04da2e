import { ServerPremium, UserGuild } from '../models';

/**
 * Whether any user who manages the guild ever signed in (or it ever had premium). An operator granting
 * premium to a guild the service has never seen has most likely mistyped its id.
 */
export async function isKnownGuild(guildId: string): Promise<boolean> {
  const [managers, records] = await Promise.all([
    UserGuild.count({ where: { guildId } }),
    ServerPremium.count({ where: { guildId } }),
  ]);
  return managers + records > 0;
}

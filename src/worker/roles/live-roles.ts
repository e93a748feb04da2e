import type { Core } from '../../core';
import type { RoleSettings } from '../../core/config';
import { GuildMembers } from '../../core/roles';
import { readSettings } from '../../core/settings';

export interface LiveRoles {
  settings: RoleSettings;
  guild: GuildMembers;
}

/**
 * The roles as the settings give them now (docs/settings.md: cached 5 s), or null while they are off. The
 * Discord client is kept while the guild and the bot token stay, so that the queue's syncs and the drift
 * sync share one count of Discord's limits, and made anew when either changes.
 */
export function liveRoles(core: Core): () => Promise<LiveRoles | null> {
  let client: { guildId: string; botToken: string; guild: GuildMembers } | null = null;
  return async () => {
    const settings = (await readSettings(core)).roles;
    if (settings === null) return null;
    if (client?.guildId !== settings.guildId || client.botToken !== settings.botToken) {
      const { discord, providerTimeoutMs } = core.config;
      const guild = GuildMembers.of(settings, discord.apiUrl, providerTimeoutMs);
      client = { guildId: settings.guildId, botToken: settings.botToken, guild };
    }
    return { settings, guild: client.guild };
  };
}

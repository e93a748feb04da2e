import type { RoleSettings } from '../config';
import type { BotStanding } from '../settings';
import { DiscordRest } from './discord-rest';
import { GuildMembers } from './guild-members';

const MANAGE_ROLES = 1n << 28n;
const ADMINISTRATOR = 1n << 3n;

interface RoleResource {
  id: string;
  name: string;
  position: number;
  permissions: string;
}

async function read<T>(discord: DiscordRest, path: string, route: string): Promise<T> {
  const answer = await discord.request({ method: 'GET', path, route });
  if (answer.status !== 200) throw new Error(`Discord answered ${answer.status} to GET ${path}`);
  return answer.body as T;
}

/**
 * Whether the bot can give and take the tier roles: Discord lets it only with Manage Roles (or
 * Administrator) and only for roles below its own highest role (docs/roles.md, steps 2 and 3). Asks
 * Discord (three requests); an answer it cannot get is a problem too.
 */
export async function botStanding(
  roles: RoleSettings,
  apiUrl: string,
  timeoutMs: number,
): Promise<BotStanding> {
  const discord = new DiscordRest({ apiUrl, botToken: roles.botToken, timeoutMs });
  try {
    const me = await read<{ id: string }>(discord, '/users/@me', 'GET users/@me');
    const [guildRoles, member] = await Promise.all([
      read<RoleResource[]>(discord, `/guilds/${roles.guildId}/roles`, `GET roles ${roles.guildId}`),
      new GuildMembers(discord, roles.guildId).member(me.id),
    ]);
    if (member === null)
      return { canManage: false, problems: [`the bot is not a member of guild ${roles.guildId}`] };
    const byId = new Map(guildRoles.map((role) => [role.id, role]));
    const own = [roles.guildId, ...member.roles].flatMap((id) => byId.get(id) ?? []);
    const permissions = own.reduce((bits, role) => bits | BigInt(role.permissions), 0n);
    const highest = Math.max(0, ...own.map((role) => role.position));
    const problems: string[] = [];
    if ((permissions & (MANAGE_ROLES | ADMINISTRATOR)) === 0n)
      problems.push('the bot lacks the Manage Roles permission');
    for (const [tier, roleId] of Object.entries(roles.tierRoles)) {
      const role = byId.get(roleId);
      if (!role) problems.push(`role ${roleId} (of ${tier}) is not a role of the guild`);
      else if (role.position >= highest)
        problems.push(`the bot's highest role is not above ${role.name} (of ${tier}): drag it higher`);
    }
    return { canManage: problems.length === 0, problems };
  } catch (error) {
    return { canManage: false, problems: [`could not ask Discord: ${(error as Error).message}`] };
  }
}

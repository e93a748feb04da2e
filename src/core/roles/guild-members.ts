import { DiscordRest, DiscordRestError, type DiscordAnswer } from './discord-rest';
import type { RoleSettings } from '../config';

/** Discord's JSON error code of a user who is not a member of the guild. */
const UNKNOWN_MEMBER = 10007;
/** The most members one page of the list holds. */
export const MEMBERS_PAGE = 1000;

export interface GuildMember {
  userId: string;
  roles: string[];
}

interface MemberResource {
  user?: { id?: string };
  roles?: unknown;
}

function memberOf(resource: MemberResource): GuildMember {
  const userId = resource.user?.id;
  if (typeof userId !== 'string' || !Array.isArray(resource.roles))
    throw new DiscordRestError('Discord answered a member without user id or roles', 200, null, null);
  return { userId, roles: resource.roles.map(String) };
}

function refused(answer: DiscordAnswer, what: string): DiscordRestError {
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as {
    code?: number;
    message?: string;
  };
  const detail = body.message
    ? `${body.message}${body.code ? ` (${body.code})` : ''}`
    : String(answer.status);
  return new DiscordRestError(
    `${what}: Discord answered ${answer.status} ${detail}`,
    answer.status,
    body.code ?? null,
    null,
  );
}

function isUnknownMember(answer: DiscordAnswer): boolean {
  return answer.status === 404 && (answer.body as { code?: number } | null)?.code === UNKNOWN_MEMBER;
}

/** The members of the seller's guild and their roles, through the bot's REST client. */
export class GuildMembers {
  constructor(
    private readonly discord: DiscordRest,
    readonly guildId: string,
  ) {}

  static of(settings: RoleSettings, apiUrl: string, timeoutMs: number): GuildMembers {
    return new GuildMembers(
      new DiscordRest({ apiUrl, botToken: settings.botToken, timeoutMs }),
      settings.guildId,
    );
  }

  /** The member, or null when the user is not in the guild (10007 Unknown Member). */
  async member(userId: string, signal?: AbortSignal): Promise<GuildMember | null> {
    const answer = await this.discord.request(
      {
        method: 'GET',
        path: `/guilds/${this.guildId}/members/${userId}`,
        route: `GET member ${this.guildId}`,
      },
      signal,
    );
    if (isUnknownMember(answer)) return null;
    if (answer.status !== 200) throw refused(answer, `reading member ${userId}`);
    return memberOf(answer.body as MemberResource);
  }

  /** One page of members, by user id after `after` ('0': the first page). */
  async page(after: string, signal?: AbortSignal): Promise<GuildMember[]> {
    const answer = await this.discord.request(
      {
        method: 'GET',
        path: `/guilds/${this.guildId}/members?limit=${MEMBERS_PAGE}&after=${after}`,
        route: `GET members ${this.guildId}`,
      },
      signal,
    );
    if (answer.status !== 200 || !Array.isArray(answer.body)) throw refused(answer, 'listing members');
    return (answer.body as MemberResource[]).map(memberOf);
  }

  /** Gives or takes `roleId`; false when the user is no member (any more). */
  async setRole(
    userId: string,
    roleId: string,
    give: boolean,
    reason: string,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const answer = await this.discord.request(
      {
        method: give ? 'PUT' : 'DELETE',
        path: `/guilds/${this.guildId}/members/${userId}/roles/${roleId}`,
        route: `member-role ${this.guildId}`,
        reason,
      },
      signal,
    );
    if (isUnknownMember(answer)) return false;
    if (answer.status !== 204)
      throw refused(answer, `${give ? 'giving' : 'taking'} role ${roleId} of ${userId}`);
    return true;
  }
}

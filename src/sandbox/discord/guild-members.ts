import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultBody, Faults, FaultRoute } from '../faults';
import { SANDBOX_BOT_USER, type SandboxGuilds } from './guilds';
import type { RateLimiter } from './rate-limits';

const MAX_PAGE = 1000;

const UNKNOWN_GUILD = { message: 'Unknown Guild', code: 10004 };
const UNKNOWN_MEMBER = { message: 'Unknown Member', code: 10007 };
const UNKNOWN_ROLE = { message: 'Unknown Role', code: 10011 };

const faultBody: FaultBody = (status, retryAfter) => ({
  contentType: 'application/json; charset=utf-8',
  body:
    status === 429
      ? { message: 'You are being rate limited.', retry_after: retryAfter, global: false }
      : { message: `${status}: sandbox fault`, code: 0 },
});

interface GuildParams {
  guild: string;
}
interface MemberParams extends GuildParams {
  user: string;
}
interface RoleParams extends MemberParams {
  role: string;
}

function memberResource(userId: string, roles: Set<string>) {
  return { user: { id: userId, username: `member_${userId.slice(-4)}` }, roles: [...roles].sort() };
}

/**
 * The bot's side of Discord's guilds under `/api/v10` (mounted at `/discord`): a member, the member list,
 * the guild's roles (with the bot's own), giving and taking a member's role, each with `Authorization: Bot <token>`, rate-limited per route and
 * guild and globally (`RateLimiter`), and `/sandbox/guilds/:guild`, the guild's roles and who holds them.
 */
export function guildMemberRoutes(
  guilds: SandboxGuilds,
  limiter: RateLimiter,
  botToken: string,
  faults: Faults,
): FastifyPluginAsync {
  const faulty = (route: FaultRoute) => ({ onRequest: faults.hook(route, faultBody) });

  /** Authenticates the bot and counts the request against its bucket; false when refused (answered). */
  function admitted(request: FastifyRequest<{ Params: GuildParams }>, reply: FastifyReply, bucket: string) {
    if (request.headers.authorization !== `Bot ${botToken}`) {
      void reply.code(401).send({ message: '401: Unauthorized', code: 0 });
      return false;
    }
    const admission = limiter.admit(`${bucket} ${request.params.guild}`);
    void reply.headers(admission.headers);
    if (!admission.admitted) {
      void reply.code(429).send(admission.body);
      return false;
    }
    if (!guilds.get(request.params.guild)) {
      void reply.code(404).send(UNKNOWN_GUILD);
      return false;
    }
    return true;
  }

  async function setRole(
    request: FastifyRequest<{ Params: RoleParams }>,
    reply: FastifyReply,
    give: boolean,
  ) {
    if (!admitted(request, reply, 'member-role')) return reply;
    const { guild: guildId, user, role } = request.params;
    const guild = guilds.get(guildId)!;
    const roles = guild.members.get(user);
    if (!roles) return reply.code(404).send(UNKNOWN_MEMBER);
    if (!guild.roles.has(role)) return reply.code(404).send(UNKNOWN_ROLE);
    if (give) roles.add(role);
    else roles.delete(role);
    const reason = request.headers['x-audit-log-reason'];
    guilds.audit.push({
      guildId,
      userId: user,
      roleId: role,
      action: give ? 'add' : 'remove',
      reason: typeof reason === 'string' ? decodeURIComponent(reason) : null,
    });
    return reply.code(204).send();
  }

  return async (app) => {
    app.get<{ Params: MemberParams }>(
      '/api/v10/guilds/:guild/members/:user',
      faulty('discord.guildMembers'),
      async (request, reply) => {
        if (!admitted(request, reply, 'member')) return reply;
        const guild = guilds.get(request.params.guild)!;
        if (request.params.user === SANDBOX_BOT_USER.id)
          return memberResource(SANDBOX_BOT_USER.id, new Set([guild.bot.id]));
        const roles = guild.members.get(request.params.user);
        return roles ? memberResource(request.params.user, roles) : reply.code(404).send(UNKNOWN_MEMBER);
      },
    );

    app.get<{ Params: GuildParams; Querystring: { limit?: string; after?: string } }>(
      '/api/v10/guilds/:guild/members',
      faulty('discord.guildMembers'),
      async (request, reply) => {
        if (!admitted(request, reply, 'members')) return reply;
        const limit = Number(request.query.limit ?? '1');
        const after = BigInt(/^\d+$/.test(request.query.after ?? '') ? request.query.after! : '0');
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
          return reply.code(400).send({ message: 'Invalid Form Body', code: 50035 });
        const members = [...guilds.get(request.params.guild)!.members]
          .filter(([userId]) => BigInt(userId) > after)
          .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
          .slice(0, limit);
        return members.map(([userId, roles]) => memberResource(userId, roles));
      },
    );

    app.get<{ Params: GuildParams }>('/api/v10/guilds/:guild/roles', async (request, reply) => {
      if (!admitted(request, reply, 'roles')) return reply;
      return guilds.roleResources(request.params.guild);
    });

    app.put<{ Params: RoleParams }>(
      '/api/v10/guilds/:guild/members/:user/roles/:role',
      faulty('discord.memberRoles'),
      (request, reply) => setRole(request, reply, true),
    );

    app.delete<{ Params: RoleParams }>(
      '/api/v10/guilds/:guild/members/:user/roles/:role',
      faulty('discord.memberRoles'),
      (request, reply) => setRole(request, reply, false),
    );

    app.get<{ Params: GuildParams }>('/sandbox/guilds/:guild', async (request, reply) =>
      guilds.get(request.params.guild)
        ? guilds.view(request.params.guild)
        : reply.code(404).send(UNKNOWN_GUILD),
    );
  };
}

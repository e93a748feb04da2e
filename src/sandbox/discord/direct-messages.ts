import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultBody, Faults } from '../faults';

/** One direct message the bot sent. */
export interface DirectMessage {
  /** The Discord id of the user it went to. */
  userId: string;
  content: string;
  /** The body as it was posted. */
  body: Record<string, unknown>;
  receivedAt: number;
}

const CANNOT_DM = { message: 'Cannot send messages to this user', code: 50007 };
const UNKNOWN_CHANNEL = { message: 'Unknown Channel', code: 10003 };

/**
 * The bot's direct messages: a DM channel per user (`POST /users/@me/channels`), the messages posted to
 * it, and the users who closed their DMs (Discord answers 50007 to a message for them).
 */
export class DirectMessages {
  readonly messages: DirectMessage[] = [];
  readonly closed = new Set<string>();
  private readonly channels = new Map<string, string>();

  constructor(readonly now: () => number) {}

  /** The DM channel's id of a user, made on first ask (Discord answers the same channel again). */
  channelOf(userId: string): string {
    let channel = this.channels.get(userId);
    if (channel === undefined) {
      channel = `9${userId.slice(-10).padStart(10, '0')}${this.channels.size.toString().padStart(6, '0')}`;
      this.channels.set(userId, channel);
    }
    return channel;
  }

  userOf(channelId: string): string | undefined {
    for (const [userId, channel] of this.channels) if (channel === channelId) return userId;
    return undefined;
  }
}

/**
 * Discord's Create DM (`POST /api/v10/users/@me/channels {recipient_id}`) and Create Message (`POST
 * /api/v10/channels/:id/messages`) for the bot (`Authorization: Bot <token>`), mounted at `/discord`, and
 * the sandbox's own `GET /sandbox/dms`: every DM sent, for tests and `npm run dev`.
 */
export function directMessageRoutes(
  dms: DirectMessages,
  botToken: string,
  faults: Faults,
  faultBody: FaultBody,
): FastifyPluginAsync {
  const faulty = { onRequest: faults.hook('discord.dms', faultBody) };
  const isBot = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.headers.authorization === `Bot ${botToken}`) return true;
    void reply.code(401).send({ message: '401: Unauthorized', code: 0 });
    return false;
  };

  return async (app) => {
    app.post('/api/v10/users/@me/channels', faulty, async (request, reply) => {
      if (!isBot(request, reply)) return reply;
      const recipient = (request.body as { recipient_id?: unknown } | null)?.recipient_id;
      if (typeof recipient !== 'string' || !/^\d{1,20}$/.test(recipient))
        return reply.code(400).send({ message: 'Invalid Form Body', code: 50035 });
      return { id: dms.channelOf(recipient), type: 1, recipients: [{ id: recipient }] };
    });

    app.post<{ Params: { id: string } }>('/api/v10/channels/:id/messages', faulty, async (request, reply) => {
      if (!isBot(request, reply)) return reply;
      const userId = dms.userOf(request.params.id);
      if (userId === undefined) return reply.code(404).send(UNKNOWN_CHANNEL);
      if (dms.closed.has(userId)) return reply.code(403).send(CANNOT_DM);
      const body = request.body as Record<string, unknown> | null;
      const content = body?.content;
      if (typeof content !== 'string' || content.trim() === '' || content.length > 2000)
        return reply.code(400).send({ message: 'Invalid Form Body', code: 50035 });
      dms.messages.push({ userId, content, body: body!, receivedAt: dms.now() });
      return { id: String(dms.messages.length), channel_id: request.params.id, content };
    });

    app.get('/sandbox/dms', async () => ({ messages: dms.messages, closed: [...dms.closed] }));
  };
}

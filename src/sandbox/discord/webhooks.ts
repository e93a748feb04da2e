import type { FastifyPluginAsync } from 'fastify';
import type { FaultBody, Faults } from '../faults';

/** One message a channel webhook took. */
export interface WebhookMessage {
  webhookId: string;
  content: string | null;
  /** The body as it was posted. */
  body: Record<string, unknown>;
  receivedAt: number;
}

/** Messages a webhook takes in a window before answering 429: Discord's 30 a minute by default. */
export interface WebhookRateLimit {
  messages: number;
  windowMs: number;
}

const DISCORD_LIMIT: WebhookRateLimit = { messages: 30, windowMs: 60_000 };
const MAX_CONTENT = 2000;

/**
 * Discord's channel webhooks (`POST /api/webhooks/{id}/{token}`): they keep every message and answer
 * 204, or 429 with `retry_after` past the rate limit, counting each such request as a violation (Discord
 * bans a webhook that keeps at it).
 */
export class DiscordWebhooks {
  readonly messages: WebhookMessage[] = [];
  /** Requests over the rate limit. */
  violations = 0;
  private readonly arrivals = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly limit: WebhookRateLimit = DISCORD_LIMIT,
  ) {}

  /** Takes a posted message: the status and body to answer, and past the limit the seconds to wait. */
  post(webhookId: string, body: unknown): { status: number; body?: object; retryAfter?: number } {
    const at = this.now();
    const recent = (this.arrivals.get(webhookId) ?? []).filter((time) => time > at - this.limit.windowMs);
    this.arrivals.set(webhookId, recent);
    if (recent.length >= this.limit.messages) {
      this.violations++;
      const retryAfter = (recent[0]! + this.limit.windowMs - at) / 1000;
      return {
        status: 429,
        body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        retryAfter,
      };
    }
    const problem = problemOf(body);
    if (problem) return { status: 400, body: { message: problem, code: 50006 } };
    recent.push(at);
    const message = body as Record<string, unknown>;
    this.messages.push({
      webhookId,
      content: typeof message.content === 'string' ? message.content : null,
      body: message,
      receivedAt: at,
    });
    return { status: 204 };
  }
}

function problemOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'Cannot send an empty message';
  const { content, embeds } = body as { content?: unknown; embeds?: unknown };
  const hasEmbeds = Array.isArray(embeds) && embeds.length > 0;
  if (content !== undefined && typeof content !== 'string') return 'content: must be a string';
  if (!hasEmbeds && (typeof content !== 'string' || content.trim() === ''))
    return 'Cannot send an empty message';
  if (typeof content === 'string' && content.length > MAX_CONTENT)
    return `content: must be ${MAX_CONTENT} or fewer in length`;
  return null;
}

/**
 * `POST /webhooks/:id/:token` as Discord serves it under `/api`, and, the sandbox's own, `GET
 * /webhooks/:id/messages`: what the webhook took and the violations of its rate limit, for tests and for
 * a developer under `npm run dev`.
 */
export function discordWebhookRoutes(
  webhooks: DiscordWebhooks,
  faults: Faults,
  faultBody: FaultBody,
): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: { id: string; token: string } }>(
      '/webhooks/:id/:token',
      { onRequest: faults.hook('discord.webhooks', faultBody) },
      async (request, reply) => {
        const answer = webhooks.post(request.params.id, request.body);
        if (answer.retryAfter !== undefined)
          reply.header('retry-after', String(Math.ceil(answer.retryAfter)));
        return reply.code(answer.status).send(answer.body);
      },
    );

    app.get<{ Params: { id: string } }>('/webhooks/:id/messages', async (request) => ({
      messages: webhooks.messages.filter((message) => message.webhookId === request.params.id),
      violations: webhooks.violations,
    }));
  };
}

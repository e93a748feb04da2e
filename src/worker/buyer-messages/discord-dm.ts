import { discordRetryAfterMs } from '../../core/discord-retry-after';

/** What Discord answered a direct message, as the sender acts on it. */
export type DmAnswer =
  | { outcome: 'sent' }
  /** 429: wait `retryAfterMs`, then send it again; no failure. */
  | { outcome: 'limited'; retryAfterMs: number }
  /** 5xx, a timeout or no connection: try again later. */
  | { outcome: 'failed'; error: string }
  /** 50007 (the user closed their DMs, or shares no server with the bot) or another 4xx: sending again cannot help. */
  | { outcome: 'refused'; error: string };

type Step = { ok: true; body: unknown } | { ok: false; answer: DmAnswer };

async function call(url: string, botToken: string, body: object, timeoutMs: number): Promise<Step> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bot ${botToken}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      ok: false,
      answer: { outcome: 'failed', error: `no answer: ${cause ?? (error as Error).name}` },
    };
  }
  const answered: unknown = await response.json().catch(() => null);
  if (response.ok) return { ok: true, body: answered };
  if (response.status === 429)
    return {
      ok: false,
      answer: { outcome: 'limited', retryAfterMs: discordRetryAfterMs(answered, response.headers) },
    };
  const { code, message } = (answered ?? {}) as { code?: unknown; message?: unknown };
  const error = `Discord answered ${response.status}: ${String(code ?? '')} ${String(message ?? '')}`.trim();
  return { ok: false, answer: { outcome: response.status >= 500 ? 'failed' : 'refused', error } };
}

/**
 * Sends `content` to a user by DM from the bot: Create DM (`POST /users/@me/channels`), then Create
 * Message in that channel. The bot's token appears in no error this returns.
 */
export async function sendDirectMessage(
  apiUrl: string,
  botToken: string,
  userId: string,
  content: string,
  timeoutMs: number,
): Promise<DmAnswer> {
  const channel = await call(`${apiUrl}/users/@me/channels`, botToken, { recipient_id: userId }, timeoutMs);
  if (!channel.ok) return channel.answer;
  const channelId = (channel.body as { id?: unknown } | null)?.id;
  if (typeof channelId !== 'string') return { outcome: 'failed', error: 'Discord answered no DM channel' };
  const message = { content, allowed_mentions: { parse: [] } };
  const sent = await call(`${apiUrl}/channels/${channelId}/messages`, botToken, message, timeoutMs);
  return sent.ok ? { outcome: 'sent' } : sent.answer;
}

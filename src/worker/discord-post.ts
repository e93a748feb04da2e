import { discordRetryAfterMs } from '../core/discord-retry-after';
import type { JobOutcome } from './queue/handler';

/** What Discord answered one request, as a sender of the work queue acts on it. */
export type DiscordAnswer =
  | { outcome: 'sent'; body: unknown }
  /** 429: wait `retryAfterMs`, then send it again; no failure. */
  | { outcome: 'limited'; retryAfterMs: number }
  /** 5xx, a timeout or no connection: try again later. */
  | { outcome: 'failed'; error: string }
  /** Any other 4xx (a webhook deleted, a token wrong, DMs closed: 50007): sending again cannot help. */
  | { outcome: 'refused'; error: string };

/**
 * POSTs `body` as JSON to Discord. A URL or header may hold a token: none appears in an error this
 * returns, which names the status and Discord's code and message (or the first 200 characters).
 */
export async function postToDiscord(
  url: string,
  body: object,
  { headers = {}, timeoutMs }: { headers?: Record<string, string>; timeoutMs: number },
): Promise<DiscordAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { outcome: 'failed', error: `no answer: ${cause ?? (error as Error).name}` };
  }
  const text = await response.text().catch(() => '');
  const answered = parsed(text);
  if (response.ok) return { outcome: 'sent', body: answered };
  if (response.status === 429)
    return { outcome: 'limited', retryAfterMs: discordRetryAfterMs(answered, response.headers) };
  const { code, message } = (answered ?? {}) as { code?: unknown; message?: unknown };
  const detail = typeof code === 'number' ? `${code} ${String(message ?? '')}`.trim() : text.slice(0, 200);
  const error = `Discord answered ${response.status}: ${detail}`;
  return response.status >= 500 ? { outcome: 'failed', error } : { outcome: 'refused', error };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The queue's outcome of a send Discord answered (undefined: done). */
export function jobOutcomeOf(answer: DiscordAnswer): JobOutcome | undefined {
  switch (answer.outcome) {
    case 'sent':
      return undefined;
    case 'limited': {
      const error = `429: retry after ${answer.retryAfterMs} ms`;
      return { retry: { inMs: answer.retryAfterMs, error, counts: false }, pauseMs: answer.retryAfterMs };
    }
    case 'failed':
      throw new Error(answer.error);
    case 'refused':
      return { dead: answer.error };
  }
}

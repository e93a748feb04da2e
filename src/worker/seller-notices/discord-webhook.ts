import { discordRetryAfterMs } from '../../core/discord-retry-after';

/** What Discord answered one message, as the sender acts on it. */
export type WebhookAnswer =
  | { outcome: 'sent' }
  /** 429: wait `retryAfterMs`, then send it again; no failure. */
  | { outcome: 'limited'; retryAfterMs: number }
  /** 5xx, a timeout or no connection: try again later. */
  | { outcome: 'failed'; error: string }
  /** Any other 4xx (the webhook deleted, its token wrong, the body refused): sending again cannot help. */
  | { outcome: 'refused'; error: string };

/**
 * Posts one message to a Discord channel webhook. The URL holds the webhook's token: it appears in no
 * error this returns.
 */
export async function postToWebhook(url: string, message: object, timeoutMs: number): Promise<WebhookAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { outcome: 'failed', error: `no answer: ${cause ?? (error as Error).name}` };
  }
  if (response.ok) {
    await response.body?.cancel();
    return { outcome: 'sent' };
  }
  if (response.status === 429) {
    const body: unknown = await response.json().catch(() => null);
    return { outcome: 'limited', retryAfterMs: discordRetryAfterMs(body, response.headers) };
  }
  const error = `Discord answered ${response.status}: ${(await response.text().catch(() => '')).slice(0, 200)}`;
  return response.status >= 500 ? { outcome: 'failed', error } : { outcome: 'refused', error };
}

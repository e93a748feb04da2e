/** What Discord answered one message, as the sender acts on it. */
export type WebhookAnswer =
  | { outcome: 'sent' }
  /** 429: wait `retryAfterMs`, then send it again; no failure. */
  | { outcome: 'limited'; retryAfterMs: number }
  /** 5xx, a timeout or no connection: try again later. */
  | { outcome: 'failed'; error: string }
  /** Any other 4xx (the webhook deleted, its token wrong, the body refused): sending again cannot help. */
  | { outcome: 'refused'; error: string };

const DEFAULT_RETRY_AFTER_MS = 1000;

/** Discord's `retry_after` (seconds, fractional) from the body, else the `Retry-After` header. */
async function retryAfterMs(response: Response): Promise<number> {
  const body = (await response.json().catch(() => null)) as { retry_after?: unknown } | null;
  const seconds =
    typeof body?.retry_after === 'number' ? body.retry_after : Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : DEFAULT_RETRY_AFTER_MS;
}

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
  if (response.status === 429) return { outcome: 'limited', retryAfterMs: await retryAfterMs(response) };
  const error = `Discord answered ${response.status}: ${(await response.text().catch(() => '')).slice(0, 200)}`;
  return response.status >= 500 ? { outcome: 'failed', error } : { outcome: 'refused', error };
}

/**
 * How long Discord asked to wait after a 429, in ms: the longer of the body's `retry_after` and the
 * `Retry-After` header (both seconds, possibly fractional); 1 s when it named neither. The bot's role calls
 * and the seller's channel webhook both read it so.
 */
export function discordRetryAfterMs(body: unknown, headers: Headers): number {
  const fromBody =
    typeof body === 'object' && body !== null ? (body as { retry_after?: unknown }).retry_after : undefined;
  const seconds = Math.max(Number(fromBody) || 0, Number(headers.get('retry-after')) || 0);
  return seconds > 0 ? Math.ceil(seconds * 1000) : 1000;
}

/**
 * Polls `condition` every `intervalMs` until it returns something other than false, null or undefined,
 * and returns that; throws, naming `what`, once `timeoutMs` has passed. For tests and the bench alike:
 * wait for a condition, never for a fixed time.
 */
export async function pollUntil<T>(
  what: string,
  condition: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  { intervalMs = 25, timeoutMs = 60_000 }: { intervalMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

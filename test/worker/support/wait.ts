/**
 * Polls `condition` until it returns something other than false, null or undefined, and returns that.
 * Throws, naming `what`, when `timeoutMs` passes first.
 */
export async function waitFor<T>(
  what: string,
  condition: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== false && value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

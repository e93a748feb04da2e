export interface Bounds {
  /** Items handled at once. */
  concurrency: number;
  /** No item is started once it aborts (a deadline, a stop); items in hand are finished. */
  signal?: AbortSignal;
}

/**
 * Calls `handle` on the items in order, `concurrency` at a time, until all are handled or `signal`
 * aborted; the rest are not touched. `handle` must not throw.
 */
export async function boundedEach<T>(
  items: readonly T[],
  { concurrency, signal }: Bounds,
  handle: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) {
      await handle(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
}

/**
 * Calls `handle` on every item `nextPage` returns, page after page (`nextPage` is given the last item of
 * the page before, undefined at first, and returns an empty page at the end), each page through
 * `boundedEach`: one page in memory at a time, and nothing more is read once `signal` aborted.
 */
export async function boundedPages<T>(
  nextPage: (after: T | undefined) => Promise<readonly T[]>,
  bounds: Bounds,
  handle: (item: T) => Promise<void>,
): Promise<void> {
  let last: T | undefined;
  while (!bounds.signal?.aborted) {
    const page = await nextPage(last);
    if (page.length === 0) return;
    await boundedEach(page, bounds, handle);
    last = page.at(-1);
  }
}

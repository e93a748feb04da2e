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

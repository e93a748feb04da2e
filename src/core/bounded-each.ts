export interface Bounds {
  /** Items handled at once. */
  concurrency: number;
  /** No item is started after this; items in hand are finished. */
  deadline?: Date;
}

/**
 * Calls `handle` on the items in order, `concurrency` at a time, until all are handled or the deadline
 * has passed. Returns how many were started (the rest were not touched). `handle` must not throw.
 */
export async function boundedEach<T>(
  items: readonly T[],
  { concurrency, deadline }: Bounds,
  handle: (item: T) => Promise<void>,
): Promise<number> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && (deadline === undefined || Date.now() < deadline.getTime())) {
      await handle(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));
  return next;
}

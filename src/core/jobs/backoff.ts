/** How long a failed job waits before its next attempt. */
export interface JobBackoff {
  /** The wait after the first failure, doubled at each further one. */
  firstMs: number;
  maxMs: number;
}

/**
 * The wait before the attempt after `failures` failures (1 or more): doubling from `firstMs`, capped at
 * `maxMs`, between half and all of that (jobs that failed together do not all come back together).
 */
export function backoffMs(failures: number, { firstMs, maxMs }: JobBackoff, random = Math.random()): number {
  const ceiling = Math.min(maxMs, firstMs * 2 ** Math.max(0, failures - 1));
  return Math.ceil(ceiling / 2 + (random * ceiling) / 2);
}

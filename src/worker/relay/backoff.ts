export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The delay before retry number `attempt` (0-based): exponential and capped, with "equal jitter" (half
 * fixed, half random) so that relays and rows that failed together do not retry together.
 */
export function jitteredDelay(attempt: number, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** Consecutive failures of one thing (Redis, the database, a connection), reset by a success. */
export class Backoff {
  private failures = 0;

  constructor(private readonly policy: BackoffPolicy) {}

  next(): number {
    return jitteredDelay(this.failures++, this.policy);
  }

  reset(): void {
    this.failures = 0;
  }
}

/** A limit of `limit` requests per window of `windowMs`, counted from a window's first request. */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface SandboxRateLimits {
  /** Each route's bucket, per guild (Discord's major parameter). */
  route: WindowLimit;
  /** Every bot request, whatever the route: Discord's 50 a second. */
  global: WindowLimit;
}

export const DEFAULT_RATE_LIMITS: SandboxRateLimits = {
  route: { limit: 10, windowMs: 1000 },
  global: { limit: 50, windowMs: 1000 },
};

/** What a request gets: on its way with these headers, or refused with a 429. */
export type Admission =
  | { admitted: true; headers: Record<string, string> }
  | { admitted: false; headers: Record<string, string>; body: object };

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Discord's rate limits, enforced as strictly as Discord does and counted: a request past its bucket's
 * limit, past the global limit, or during a 429's `retry_after` is a violation (Discord bans a bot that
 * makes too many). `penalize` makes the next request a 429 on demand.
 */
export class RateLimiter {
  private limits: SandboxRateLimits = DEFAULT_RATE_LIMITS;
  violations = 0;
  private readonly windows = new Map<string, Window>();
  private pendingPenalty: { retryAfterS: number; global: boolean } | null = null;
  private readonly penalties = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** New limits, counted afresh: no window, penalty or violation is kept. */
  configure(limits: SandboxRateLimits): void {
    this.limits = limits;
    this.violations = 0;
    this.windows.clear();
    this.penalties.clear();
    this.pendingPenalty = null;
  }

  /** The next request gets a 429 of `retryAfterS` seconds; `global`: for every route. */
  penalize(retryAfterS: number, global: boolean): void {
    this.pendingPenalty = { retryAfterS, global };
  }

  admit(bucket: string): Admission {
    const now = this.now();
    if (this.pendingPenalty) {
      const { retryAfterS, global } = this.pendingPenalty;
      this.pendingPenalty = null;
      this.penalties.set(global ? 'global' : bucket, now + retryAfterS * 1000);
      return refusal(retryAfterS, global, bucket);
    }
    for (const scope of ['global', bucket]) {
      const until = this.penalties.get(scope) ?? 0;
      if (now < until) {
        this.violations++;
        return refusal((until - now) / 1000, scope === 'global', bucket);
      }
    }
    const global = this.count('global', this.limits.global, now);
    if (global.count > this.limits.global.limit) {
      this.violations++;
      return refusal(resetAfter(global, this.limits.global, now), true, bucket);
    }
    const route = this.count(bucket, this.limits.route, now);
    const remaining = this.limits.route.limit - route.count;
    const reset = resetAfter(route, this.limits.route, now);
    if (remaining < 0) {
      this.violations++;
      return refusal(reset, false, bucket);
    }
    return {
      admitted: true,
      headers: {
        'x-ratelimit-bucket': bucketHash(bucket),
        'x-ratelimit-limit': String(this.limits.route.limit),
        'x-ratelimit-remaining': String(remaining),
        'x-ratelimit-reset-after': reset.toFixed(3),
        'x-ratelimit-reset': ((now + reset * 1000) / 1000).toFixed(3),
      },
    };
  }

  private count(key: string, limit: WindowLimit, now: number): Window {
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= limit.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return window;
  }
}

function resetAfter(window: Window, limit: WindowLimit, now: number): number {
  return Math.max(0, window.startedAt + limit.windowMs - now) / 1000;
}

/** Discord names a bucket by an opaque hash, not by its route. */
function bucketHash(bucket: string): string {
  return Buffer.from(bucket.split(' ')[0]!).toString('hex');
}

function refusal(retryAfterS: number, global: boolean, bucket: string): Admission {
  const retryAfter = Number(retryAfterS.toFixed(3));
  const headers: Record<string, string> = {
    'retry-after': String(Math.ceil(retryAfter)),
    'x-ratelimit-scope': global ? 'global' : 'user',
  };
  if (global) headers['x-ratelimit-global'] = 'true';
  else {
    headers['x-ratelimit-bucket'] = bucketHash(bucket);
    headers['x-ratelimit-remaining'] = '0';
    headers['x-ratelimit-reset-after'] = retryAfter.toFixed(3);
  }
  return {
    admitted: false,
    headers,
    body: { message: 'You are being rate limited.', retry_after: retryAfter, global },
  };
}

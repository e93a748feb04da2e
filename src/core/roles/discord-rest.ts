import { setTimeout as sleep } from 'node:timers/promises';
import { discordRetryAfterMs } from '../discord-retry-after';

/** Discord's documented limit of a bot across every route: 50 requests a second. */
const GLOBAL_PER_SECOND = 50;
/** Added to every wait: the sandbox or Discord may count a window from a moment later than ours. */
const WAIT_MARGIN_MS = 50;

export interface DiscordRestOptions {
  /** DISCORD_API_URL (the sandbox's in development and tests). */
  apiUrl: string;
  botToken: string;
  /** PROVIDER_TIMEOUT_MS: each request's. */
  timeoutMs: number;
  /** Requests a second across every route; Discord's 50 by default. */
  globalPerSecond?: number;
  /** Tries of one call that met a 429, a 5xx or a network error before it gives up for later. */
  attempts?: number;
  /** The first pause after a 5xx or a network error, doubled at each further try. */
  backoffMs?: number;
  /** The longest wait one call makes for a rate limit; a longer one is left to the caller's retry. */
  maxWaitMs?: number;
}

/**
 * A call Discord refused or could not answer. `retryable`: a 429, a 5xx or a network error, which a
 * later try may pass; `retryInMs` is how long Discord asked to wait, when it did.
 */
export class DiscordRestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: number | null,
    readonly retryInMs: number | null,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

export interface DiscordRequest {
  method: 'GET' | 'PUT' | 'DELETE';
  /** Path under the API URL, with its query. */
  path: string;
  /** The rate-limit route: method, template and major parameter, e.g. `PUT member-role 1234`. */
  route: string;
  /** X-Audit-Log-Reason: shown in the guild's audit log. */
  reason?: string;
}

export interface DiscordAnswer {
  status: number;
  body: unknown;
}

interface Received extends DiscordAnswer {
  headers: Headers;
}

interface Bucket {
  remaining: number;
  resetAt: number;
}

/**
 * The one client of Discord's bot REST API (docs/roles.md): every request waits for the global limit
 * (one for every call of this client, however many callers share it), for its route's bucket when
 * `X-RateLimit-Remaining` said it is spent, and after a 429 for `retry_after` (the body's, or the
 * `Retry-After` header's, whichever is longer; `global: true` pauses every route). A 5xx or a network
 * error is tried again after a growing pause. What still fails is thrown as a DiscordRestError.
 */
export class DiscordRest {
  private readonly options: Required<DiscordRestOptions>;
  private globalUntil = 0;
  private readonly sentAt: number[] = [];
  private readonly bucketOfRoute = new Map<string, string>();
  private readonly buckets = new Map<string, Bucket>();
  /** Requests wait their turn one at a time, so that the limits are counted in the order they are sent. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(options: DiscordRestOptions) {
    this.options = {
      globalPerSecond: GLOBAL_PER_SECOND,
      attempts: 4,
      backoffMs: 250,
      maxWaitMs: 10_000,
      ...options,
      apiUrl: options.apiUrl.replace(/\/+$/, ''),
    };
  }

  async request(request: DiscordRequest, signal?: AbortSignal): Promise<DiscordAnswer> {
    for (let attempt = 1; ; attempt++) {
      let answer: Received;
      try {
        answer = await this.sendInTurn(request, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt >= this.options.attempts)
          throw new DiscordRestError(`Discord unreachable: ${(error as Error).message}`, null, null, null);
        await sleep(this.backoff(attempt), undefined, { signal });
        continue;
      }
      if (answer.status === 429) {
        const waitMs = this.rateLimited(request.route, answer);
        if (attempt >= this.options.attempts || waitMs > this.options.maxWaitMs)
          throw new DiscordRestError('Discord rate limited the request', 429, null, waitMs);
        continue;
      }
      if (answer.status >= 500) {
        if (attempt >= this.options.attempts)
          throw new DiscordRestError(`Discord answered ${answer.status}`, answer.status, null, null);
        await sleep(this.backoff(attempt), undefined, { signal });
        continue;
      }
      return { status: answer.status, body: answer.body };
    }
  }

  private backoff(attempt: number): number {
    return this.options.backoffMs * 2 ** (attempt - 1);
  }

  private sendInTurn(request: DiscordRequest, signal?: AbortSignal): Promise<Received> {
    const turn = this.turn.then(() => this.waitForLimits(request.route, signal));
    this.turn = turn.catch(() => undefined);
    return turn.then(() => this.send(request, signal));
  }

  /** Waits until the global limit, the global pause and the route's bucket all let a request go. */
  private async waitForLimits(route: string, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.sentAt.length > 0 && now - this.sentAt[0]! >= 1000 + WAIT_MARGIN_MS) this.sentAt.shift();
      const bucketName = this.bucketOfRoute.get(route);
      const bucket = bucketName === undefined ? undefined : this.buckets.get(bucketName);
      const until = Math.max(
        this.globalUntil,
        this.sentAt.length >= this.options.globalPerSecond ? this.sentAt[0]! + 1000 + WAIT_MARGIN_MS : 0,
        bucket && bucket.remaining <= 0 ? bucket.resetAt : 0,
      );
      if (until <= now) break;
      await sleep(until - now, undefined, { signal });
    }
    this.sentAt.push(Date.now());
    const bucket = this.buckets.get(this.bucketOfRoute.get(route) ?? '');
    if (bucket) bucket.remaining--;
  }

  private async send(request: DiscordRequest, signal?: AbortSignal): Promise<Received> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const headers: Record<string, string> = { authorization: `Bot ${this.options.botToken}` };
    if (request.reason !== undefined) headers['x-audit-log-reason'] = encodeURIComponent(request.reason);
    const response = await fetch(`${this.options.apiUrl}${request.path}`, {
      method: request.method,
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await response.text();
    this.learnBucket(request.route, response.headers);
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: response.status, body, headers: response.headers };
  }

  /** What `X-RateLimit-Bucket`, `-Remaining` and `-Reset-After` say of the route's bucket. */
  private learnBucket(route: string, headers: Headers): void {
    const name = headers.get('x-ratelimit-bucket');
    const remaining = headers.get('x-ratelimit-remaining');
    const resetAfter = headers.get('x-ratelimit-reset-after');
    if (name === null || remaining === null || resetAfter === null) return;
    // One bucket (hash) is counted apart for each major parameter (the guild), which the route ends with.
    const bucket = `${name}:${route.split(' ').pop()}`;
    this.bucketOfRoute.set(route, bucket);
    this.buckets.set(bucket, {
      remaining: Number(remaining),
      resetAt: Date.now() + Number(resetAfter) * 1000 + WAIT_MARGIN_MS,
    });
  }

  /** After a 429: how long to wait, set on the route's bucket, or on every route when it is global. */
  private rateLimited(route: string, { body: answered, headers }: Received): number {
    const body = (typeof answered === 'object' && answered !== null ? answered : {}) as { global?: boolean };
    const waitMs = discordRetryAfterMs(body, headers) + WAIT_MARGIN_MS;
    const resetAt = Date.now() + waitMs;
    if (body.global === true || headers.get('x-ratelimit-global') === 'true') this.globalUntil = resetAt;
    else {
      const name = this.bucketOfRoute.get(route) ?? route;
      this.bucketOfRoute.set(route, name);
      this.buckets.set(name, { remaining: 0, resetAt });
    }
    return waitMs;
  }
}

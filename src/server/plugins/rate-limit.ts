import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../../core/errors';

const WINDOW_MS = 60_000;

export interface RateLimitPluginOptions {
  redis: Redis;
  /** Starts every counter's key (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  /** Requests each client (IP, or user on the payment routes) may make per minute, per route. */
  perMinute: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `perUserRateLimit()`: the route also limits each signed-in user, after authentication. */
    perUserRateLimit?: boolean;
  }
}

function rateLimited(after: string): AppError {
  return new AppError('rate_limited', 'RATE_LIMITED', `Too many requests; retry in ${after}`);
}

/**
 * Counters in Redis shared by every API replica, per route and client. Every route is limited per IP at
 * `onRequest`, before authentication and before the body is read, so requests refused for a bad token or
 * a bad body count too; a route can set its own `max` (`perIpRateLimit(max)`) or opt out (the process's
 * own liveness probe). Routes marked `perUserRateLimit()` add a limit per signed-in user, whatever their
 * IP, after their `authenticate`. Register it before the routes it limits.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitPluginOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    redis: options.redis,
    nameSpace: `${options.keyPrefix}rate-limit:`,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    // A Redis outage must not stop payments from being verified: limits then lapse until it is back.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => rateLimited(context.after),
  });

  const perUser = app.createRateLimit({
    keyGenerator: (request: FastifyRequest) =>
      `user:${request.routeOptions.method}${request.routeOptions.url}:${request.caller?.providerId}`,
  });
  const limitUser: preHandlerHookHandler = async (request, reply) => {
    // A route whose authentication failed never gets here.
    if (!request.caller) return;
    const limit = await perUser(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    reply.header('retry-after', limit.ttlInSeconds);
    throw rateLimited(`${limit.ttlInSeconds} seconds`);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.perUserRateLimit) return;
    // After the route's own preHandlers, `authenticate` among them.
    route.preHandler = [...toArray(route.preHandler), limitUser];
  });
}

function toArray<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });

/** Route `config` limiting each client IP at `max` a minute (default RATE_LIMIT_PER_MINUTE). */
export function perIpRateLimit(max?: number): { rateLimit: RateLimitOptions } {
  return { rateLimit: max === undefined ? {} : { max } };
}

/** Route `config` of routes behind `app.authenticate`: per IP like every route, and per signed-in user. */
export function perUserRateLimit(): { rateLimit: RateLimitOptions; perUserRateLimit: true } {
  return { rateLimit: {}, perUserRateLimit: true };
}

/** Route `config` of a route no client could flood a dependency with (the liveness probe). */
export function noRateLimit(): { rateLimit: false } {
  return { rateLimit: false };
}

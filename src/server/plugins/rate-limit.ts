import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, isAppError } from '../../core/errors';
import type { RedisClient } from '../../redis/connection';
import { perTurnRedisStore } from './rate-limit-store';

const WINDOW_MS = 60_000;

export interface RateLimitPluginOptions {
  redis: RedisClient;
  /** Starts every counter's key (REDIS_KEY_PREFIX). */
  keyPrefix: string;
  /** Requests each client (IP, or user on the payment routes) may make per minute, per route. */
  perMinute: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set once a Redis command of this request failed or timed out (its per-IP limit): the request
     * sends Redis nothing more (no per-user limit, no sign-in state), so that a hung Redis costs it one
     * command timeout, not one per command.
     */
    redisLapsed: boolean;
  }
  interface FastifyContextConfig {
    /** Set by `perIpRateLimit(max)` (another limit per IP) or `noRateLimit()` (none). */
    ipRateLimit?: { max: number } | false;
    /** Set by `perClientRateLimit`: whom a request counts for, when not its IP (null: its IP). */
    rateLimitClient?: (request: FastifyRequest) => string | null;
    /**
     * Set by `perUserRateLimit(max)`: the route also limits each signed-in user, after authentication,
     * to RATE_LIMIT_PER_MINUTE or its own `max`.
     */
    perUserRateLimit?: { max: number } | true;
  }
}

function rateLimited(after: string): AppError {
  return new AppError('rate_limited', 'RATE_LIMITED', `Too many requests; retry in ${after}`);
}

/**
 * Counters in Redis shared by every API replica, per route and client. Every route registered after this
 * plugin is limited per IP in an app-wide `onRequest` hook, which runs before any route's own hooks: before
 * authentication and before the body is read, so requests refused for a bad token or a bad body count
 * too. A route can set its own `max` (`perIpRateLimit(max)`) or opt out (`noRateLimit()`, the liveness
 * probe). Routes marked `perUserRateLimit()` add a limit per signed-in user, whatever their IP, after
 * their `authenticate`.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitPluginOptions): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: perTurnRedisStore(options.redis, `${options.keyPrefix}rate-limit:`),
    // Per route; per user once authenticated, per IP before.
    keyGenerator: (request) => {
      const client =
        request.routeOptions.config.rateLimitClient?.(request) ??
        (request.caller ? `user:${request.caller.providerId}` : `ip:${request.ip}`);
      return `${client}:${request.routeOptions.method}${request.routeOptions.url ?? '(no route)'}`;
    },
    max: (request) => {
      const { ipRateLimit, perUserRateLimit } = request.routeOptions.config;
      const routeLimit = request.caller ? perUserRateLimit : ipRateLimit;
      return typeof routeLimit === 'object' ? routeLimit.max : options.perMinute;
    },
    allowList: (request) => request.routeOptions.config.ipRateLimit === false,
    timeWindow: WINDOW_MS,
    // A Redis outage must not stop payments from being verified: limits then lapse until it is back
    // (the store's errors reach the hooks below, which mark the request's Redis as lapsed).
    skipOnError: false,
    errorResponseBuilder: (_request, context) => rateLimited(context.after),
  });
  app.decorateRequest('redisLapsed', false);
  const limitIp = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    try {
      await limitIp.call(app, request, reply);
    } catch (error) {
      if (isAppError(error)) throw error;
      request.redisLapsed = true;
    }
  });

  const limit = app.createRateLimit();
  const limitUser: preHandlerAsyncHookHandler = async (request, reply) => {
    // A route whose authentication failed never gets here.
    if (!request.caller || request.redisLapsed) return;
    let counted;
    try {
      counted = await limit(request);
    } catch {
      request.redisLapsed = true;
      return;
    }
    if (counted.isAllowed || !counted.isExceeded) return;
    reply.header('retry-after', counted.ttlInSeconds);
    throw rateLimited(`${counted.ttlInSeconds} seconds`);
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

/** Route `config` limiting each client IP (every route is); `max` a minute instead of RATE_LIMIT_PER_MINUTE. */
export function perIpRateLimit(max?: number): { ipRateLimit?: { max: number } } {
  return max === undefined ? {} : { ipRateLimit: { max } };
}

/**
 * Route `config` counting each request, `max` a minute, for the client `client` names (a bot by its token,
 * say) or, where it names none, for its IP.
 */
export function perClientRateLimit(
  max: number,
  client: (request: FastifyRequest) => string | null,
): { ipRateLimit: { max: number }; rateLimitClient: (request: FastifyRequest) => string | null } {
  return { ipRateLimit: { max }, rateLimitClient: client };
}

/**
 * Route `config` of routes behind `app.authenticate`: per IP like every route, and per signed-in user
 * (`max` a minute instead of RATE_LIMIT_PER_MINUTE).
 */
export function perUserRateLimit(max?: number): { perUserRateLimit: { max: number } | true } {
  return { perUserRateLimit: max === undefined ? true : { max } };
}

/** Route `config` of a route no client could flood a dependency with (the liveness probe). */
export function noRateLimit(): { ipRateLimit: false } {
  return { ipRateLimit: false };
}

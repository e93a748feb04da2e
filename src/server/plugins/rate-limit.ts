import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../core/errors';
import type { RedisClient } from '../../redis/connection';

const KEY_PREFIX = 'premium:rate-limit:';
const WINDOW_MS = 60_000;

export interface RateLimitPluginOptions {
  redis: RedisClient;
  /** Requests each client (IP or user, per route) may make per minute. */
  perMinute: number;
}

/**
 * Counters in Redis shared by every API replica, one per route and client, off unless a route opts in
 * with `perIpRateLimit()` or `perUserRateLimit()`. Register it before the routes it limits.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitPluginOptions): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    redis: options.redis,
    nameSpace: KEY_PREFIX,
    max: options.perMinute,
    timeWindow: WINDOW_MS,
    // A Redis outage must not stop payments from being verified: limits then lapse until it is back.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', 'RATE_LIMITED', `Too many requests; retry in ${context.after}`),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });

/** Route `config` limiting each client IP (sign-in, public status). */
export function perIpRateLimit(): { rateLimit: RateLimitOptions } {
  return { rateLimit: {} };
}

/**
 * Route `config` limiting each signed-in user, whatever their IP, for routes behind
 * `preHandler: app.authenticate` (the limit runs after it); a request without a caller counts per IP.
 */
export function perUserRateLimit(): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      hook: 'preHandler',
      keyGenerator: (request) => (request.caller ? `user:${request.caller.providerId}` : `ip:${request.ip}`),
    },
  };
}

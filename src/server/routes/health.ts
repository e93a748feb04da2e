import { Type } from '@sinclair/typebox';
import { execute } from '../../core/db/database';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Core } from '../../core';
import type { RedisClient } from '../../redis/connection';
import { noRateLimit, perIpRateLimit } from '../plugins/rate-limit';
import { redisCircuit } from '../redis-circuit';
import { errorReplies } from '../schemas';
import { PROBE } from '../sql';

const PROBE_TIMEOUT_MS = 2000;

const Dependency = Type.Union([Type.Literal('ok'), Type.Literal('down')]);
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  postgres: Dependency,
  redis: Dependency,
});

function withTimeout<T>(promise: Promise<T>, label: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${label} did not answer`)), PROBE_TIMEOUT_MS).unref(),
    ),
  ]);
}

/** 'down' and nothing more: the cause (host names, credentials in a URL) is for the log, not the public. */
async function probe(
  label: string,
  check: () => Promise<unknown>,
  log: FastifyBaseLogger,
): Promise<'ok' | 'down'> {
  try {
    await withTimeout(check(), label);
    return 'ok';
  } catch (error) {
    log.warn({ err: error, dependency: label }, `readiness: ${label} is down`);
    return 'down';
  }
}

/**
 * /healthz: the process answers (never rate-limited: the supervisor asks it). /readyz: PostgreSQL and
 * Redis answer too (take it out of the pool if not); limited per IP, since each call reaches both.
 */
export default async function healthRoutes(
  app: FastifyInstance,
  options: { core: Core; redis: RedisClient },
): Promise<void> {
  app.get(
    '/healthz',
    {
      config: noRateLimit(),
      schema: {
        tags: ['operations'],
        summary: 'The process answers',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  const readyzSchema = {
    tags: ['operations'],
    summary: 'PostgreSQL and Redis answer too (503 names which does not)',
    response: { 200: Readiness, 503: Readiness, ...errorReplies(429) },
  };
  app.get('/readyz', { config: perIpRateLimit(), schema: readyzSchema }, async (request, reply) => {
    const [postgres, redis] = await Promise.all([
      probe('postgres', () => execute(options.core.sequelize, PROBE), request.log),
      probe('redis', () => redisCircuit(options.redis).send((client) => client.ping()), request.log),
    ]);
    const ready = postgres === 'ok' && redis === 'ok';
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', postgres, redis });
  });
}

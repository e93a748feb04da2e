import type { FastifyInstance } from 'fastify';
import type { Core } from '../../core';
import type { RedisClient } from '../../redis/connection';

const PROBE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, label: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${label} did not answer`)), PROBE_TIMEOUT_MS).unref(),
    ),
  ]);
}

async function probe(label: string, check: () => Promise<unknown>): Promise<'ok' | string> {
  try {
    await withTimeout(check(), label);
    return 'ok';
  } catch (error) {
    return (error as Error).message || `${label} unreachable`;
  }
}

/** /healthz: the process answers. /readyz: PostgreSQL and Redis answer too (take it out of the pool if not). */
export default async function healthRoutes(
  app: FastifyInstance,
  options: { core: Core; redis: RedisClient },
): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const [postgres, redis] = await Promise.all([
      probe('postgres', () => options.core.sequelize.query('SELECT 1')),
      probe('redis', () => options.redis.ping()),
    ]);
    const ready = postgres === 'ok' && redis === 'ok';
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', postgres, redis });
  });
}

import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Core } from '../../src/core';
import { buildApp } from '../../src/server/app';
import { useTestCore } from './context';

export interface TestApp {
  core: Core;
  app: FastifyInstance;
  redis: Redis;
}

/** The API built on this worker's database and the local Redis, reset before each test. */
export function useTestApp(overrides: NodeJS.ProcessEnv = {}): () => TestApp {
  const getCore = useTestCore(overrides);
  let context: TestApp | undefined;
  beforeAll(async () => {
    const core = getCore();
    const redis = new Redis(core.config.redisUrl);
    context = { core, redis, app: await buildApp({ core, redis }) };
    await context.app.ready();
  });
  afterAll(async () => {
    await context?.app.close();
    context?.redis.disconnect();
  });
  return () => context!;
}

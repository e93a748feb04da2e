import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { createCore } from '../core';
import { ConfigError, loadConfig, loadDotEnv } from '../core/config';
import { startHealthServer } from '../worker/health-server';
import { buildApp } from './app';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const core = createCore(config);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  const app = await buildApp({ core, redis });
  // Off the public port, as the worker's are: keep METRICS_PORT away from the load balancer.
  const metrics = await startHealthServer({
    host: config.host,
    port: config.metricsPort,
    registry: app.metrics,
  });
  app.log.info({ port: metrics.port }, 'metrics listening');

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await metrics.close();
    redis.disconnect();
    await core.close();
  });

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
